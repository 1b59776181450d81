# Roofline: each kernel of the tuned variant (and the whole stage) at its
# arithmetic intensity; ceilings from the measured device limits.
# columns: intensity GFLOP/s kind-index N label
$k << EOD
3.69985 83.5362 0 1 "volume"
1.125 16.7132 1 1 "flux"
0.937488 34.4485 3 1 "liftupdate"
8.29309 86.9083 0 2 "volume"
1.24138 15.8667 1 2 "flux"
1.8242 56.0413 3 2 "liftupdate"
15.8161 110.599 0 3 "volume"
1.29496 19.5074 1 3 "flux"
3.07076 64.7269 3 3 "liftupdate"
26.9891 95.755 0 4 "volume"
1.32353 15.9963 1 4 "flux"
4.6881 71.2172 3 4 "liftupdate"
42.4096 94.7395 0 5 "volume"
1.34043 15.2046 1 5 "flux"
6.6812 73.8617 3 5 "liftupdate"
62.8582 100.737 0 6 "volume"
1.35121 16.2738 1 6 "flux"
9.05835 63.8966 3 6 "liftupdate"
87.4006 109.809 0 7 "volume"
1.35849 16.1877 1 7 "flux"
11.794 72.2797 3 7 "liftupdate"
112.597 53.7961 0 8 "volume"
1.36364 12.4194 1 8 "flux"
14.8321 58.7126 3 8 "liftupdate"
EOD
$s << EOD
3.96142 29.7254 1
7.48876 43.2248 2
12.8242 65.1261 3
20.4064 68.316 4
30.5631 74.6588 5
43.7072 78.4233 6
59.4587 89.6688 7
76.3878 53.047 8
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
set yrange [*:292.667]
bw = 24.8577
peak = 117.067
fma = 117.067
gemm = 13.4774
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
  $k using ($3 == 3 ? $1 : 1/0):2:4 with points pt 11 ps 1.6 lc palette title 'liftupdate', \
  $s using 1:2:3 with points pt 6 ps 3 lw 2 lc palette title 'whole stage', \
  $s using 1:2:(sprintf('N%d', $3)) with labels offset 1.6,0 font ',8' notitle
