# Roofline: each kernel of the tuned variant (and the whole stage) at its
# arithmetic intensity; ceilings from the measured device limits.
# columns: intensity GFLOP/s kind-index N label
$k << EOD
5.44443 8876.71 9 1 "rhs"
0.25 751.508 5 1 "update"
11.781 12052.4 9 2 "rhs"
0.25 608.373 5 2 "update"
21.7665 18825.3 9 3 "rhs"
0.25 737.493 5 3 "update"
36.2404 17960.8 9 4 "rhs"
0.25 696.783 5 4 "update"
42.8357 22880.8 0 5 "volume"
1.34043 3155.48 1 5 "flux"
6.69172 10476.1 3 5 "liftupdate"
81.6407 20843.6 9 6 "rhs"
0.25 729.623 5 6 "update"
EOD
$s << EOD
3.96153 5821.38 1
7.4903 7528.68 2
12.8339 12504.3 3
20.4637 13458.9 4
30.7766 14423.4 5
44.1434 17668.5 6
EOD
set terminal pngcairo size 1000,680 font ',10' noenhanced
set output 'roofline.png'
set title 'NVIDIA H100 80GB HBM3: roofline of the tuned variant (float)'
set xlabel 'arithmetic intensity (flop / minimum byte)'
set ylabel 'GFLOP/s'
set logscale xy
set grid
set key bottom right
set xrange [0.05:200]
set yrange [*:163301]
bw = 2938.73
peak = 65320.2
fma = 65320.2
gemm = 0
roof(x) = (x * bw < peak) ? x * bw : peak
set label 1 sprintf('bandwidth %.1f GB/s', bw) at 0.08, 0.08 * bw * 1.6 rotate by 33
set label 2 sprintf('peak %.0f GFLOP/s', peak) at 30, peak * 1.15
set palette defined (1 '#1f77b4', 4 '#2ca02c', 8 '#d62728')
set cbrange [1:8]
set cblabel 'order N'
set cbtics 1
plot roof(x) with lines lw 3 lc rgb '#333333' title 'roofline (measured)', \
  $k using ($3 == 0 ? $1 : 1/0):2:4 with points pt 7 ps 1.6 lc palette title 'volume', \
  $k using ($3 == 1 ? $1 : 1/0):2:4 with points pt 5 ps 1.6 lc palette title 'flux', \
  $k using ($3 == 3 ? $1 : 1/0):2:4 with points pt 11 ps 1.6 lc palette title 'liftupdate', \
  $k using ($3 == 5 ? $1 : 1/0):2:4 with points pt 15 ps 1.6 lc palette title 'update', \
  $k using ($3 == 9 ? $1 : 1/0):2:4 with points pt 12 ps 1.6 lc palette title 'rhs', \
  $s using 1:2:3 with points pt 6 ps 3 lw 2 lc palette title 'whole stage', \
  $s using 1:2:(sprintf('N%d', $3)) with labels offset 1.6,0 font ',8' notitle
