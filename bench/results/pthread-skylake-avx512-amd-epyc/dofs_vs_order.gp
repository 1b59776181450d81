# DOF/s per order: tuned, default and baseline variants, and the roofline bound.
# columns: N tuned default baseline bound (MDOF/s)
$d << EOD
1 288.596 259.666 57.0341 956.035
2 277.438 277.438 51.2574 751.39
3 268.009 236.74 40.2246 481.756
4 184.852 184.852 30.0146 316.763
5 138.001 138.001 22.1095 216.389
6 102.783 99.3993 16.2432 153.429
7 86.1041 87.8217 14.2338 112.413
8 38.3817 38.3817 9.3111 84.7026
EOD
set terminal pngcairo size 900,560 font ',10' noenhanced
set output 'dofs_vs_order.png'
set title 'pthread-skylake-avx512-AMD EPYC: throughput per order (float)'
set xlabel 'order N'
set ylabel 'MDOF/s (field DOFs x RK stages / s)'
set logscale y
set grid
set key top right
set xtics 1
set datafile missing NaN
plot $d using 1:5 with lines dt 2 lw 2 lc rgb '#777777' title 'roofline bound', \
  $d using 1:4 with linespoints pt 9 lw 2 lc rgb '#d62728' title 'baseline', \
  $d using 1:3 with linespoints pt 4 ps 1.8 lw 2 dt 3 lc rgb '#2ca02c' title 'default', \
  $d using 1:2 with linespoints pt 7 lw 2 lc rgb '#1f77b4' title 'tuned'
