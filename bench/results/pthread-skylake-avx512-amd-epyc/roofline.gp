# Roofline: each kernel of the tuned variant (and the whole stage) at its
# arithmetic intensity; ceilings from the measured device limits.
# columns: intensity GFLOP/s kind-index N label
$k << EOD
3.69985 162.139 0 1 "volume"
1.125 43.6958 1 1 "flux"
0.937488 88.6807 3 1 "liftupdate"
8.29309 188.436 0 2 "volume"
1.24138 44.7918 1 2 "flux"
1.8242 122.336 3 2 "liftupdate"
15.8161 215.546 0 3 "volume"
1.29496 43.6643 1 3 "flux"
3.07076 142.256 3 3 "liftupdate"
26.9891 203.306 0 4 "volume"
1.32353 38.9476 1 4 "flux"
4.6881 150.083 3 4 "liftupdate"
42.4096 188.439 0 5 "volume"
1.34043 32.9705 1 5 "flux"
6.6812 142.894 3 5 "liftupdate"
62.8582 202.582 0 6 "volume"
1.35121 34.859 1 6 "flux"
16.8024 155.689 2 6 "lift"
0.25 31.963 5 6 "update"
87.4006 219.24 0 7 "volume"
21.7835 121.148 4 7 "fluxlift"
0.25 32.9381 5 7 "update"
112.597 107.1 0 8 "volume"
1.36364 16.854 1 8 "flux"
14.8321 72.3723 3 8 "liftupdate"
EOD
$s << EOD
3.96142 73.9887 1
7.48876 105.601 2
12.8242 134.422 3
20.4064 148.118 4
30.5631 149.179 5
43.7072 165.082 6
59.4587 173.817 7
76.3878 91.04 8
EOD
set terminal pngcairo size 1000,680 font ',10' noenhanced
set output 'roofline.png'
set title 'pthread-skylake-avx512-AMD EPYC: roofline of the tuned variant (float)'
set xlabel 'arithmetic intensity (flop / minimum byte)'
set ylabel 'GFLOP/s'
set logscale xy
set grid
set key bottom right
set xrange [0.05:200]
set yrange [*:582.046]
bw = 38.2358
peak = 232.818
fma = 232.818
gemm = 28.0285
roof(x) = (x * bw < peak) ? x * bw : peak
set label 1 sprintf('bandwidth %.1f GB/s', bw) at 0.08, 0.08 * bw * 1.6 rotate by 33
set label 2 sprintf('peak %.0f GFLOP/s', peak) at 30, peak * 1.15
set palette defined (1 '#1f77b4', 4 '#2ca02c', 8 '#d62728')
set cbrange [1:8]
set cblabel 'order N'
set cbtics 1
plot roof(x) with lines lw 3 lc rgb '#333333' title 'roofline (measured)', \
  gemm with lines dt 3 lc rgb '#999999' title sprintf('CLBlast GEMM %.0f GFLOP/s', gemm), \
  $k using ($3 == 0 ? $1 : 1/0):2:4 with points pt 7 ps 1.6 lc palette title 'volume', \
  $k using ($3 == 1 ? $1 : 1/0):2:4 with points pt 5 ps 1.6 lc palette title 'flux', \
  $k using ($3 == 2 ? $1 : 1/0):2:4 with points pt 9 ps 1.6 lc palette title 'lift', \
  $k using ($3 == 3 ? $1 : 1/0):2:4 with points pt 11 ps 1.6 lc palette title 'liftupdate', \
  $k using ($3 == 4 ? $1 : 1/0):2:4 with points pt 13 ps 1.6 lc palette title 'fluxlift', \
  $k using ($3 == 5 ? $1 : 1/0):2:4 with points pt 15 ps 1.6 lc palette title 'update', \
  $s using 1:2:3 with points pt 6 ps 3 lw 2 lc palette title 'whole stage', \
  $s using 1:2:(sprintf('N%d', $3)) with labels offset 1.6,0 font ',8' notitle
