# DOF/s per order: tuned, default and baseline variants, and the roofline bound.
# columns: N tuned default baseline bound (MDOF/s)
$d << EOD
1 718.337 626.071 114.058 1470.56
2 677.797 597.35 102.717 1494.34
3 553.177 523.377 81.5212 958.1
4 400.783 361.952 60.1061 629.968
5 275.747 275.747 43.7969 430.348
6 216.359 202.621 32.6089 305.135
7 166.907 169.139 24.4832 223.563
8 65.8712 77.0218 18.7031 168.454
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
