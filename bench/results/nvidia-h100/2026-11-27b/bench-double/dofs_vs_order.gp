# DOF/s per order: tuned, default and baseline variants, and the roofline bound.
# columns: N tuned default baseline bound (MDOF/s)
$d << EOD
3 19412.5 19412.5 13834 80059.1
4 11145.9 11145.9 10983.1 83630.5
5 12952.6 12952.6 11919.4 60233.4
6 10012.1 10012.1 9310.79 42708.1
EOD
set terminal pngcairo size 900,560 font ',10' noenhanced
set output 'dofs_vs_order.png'
set title 'NVIDIA H100 80GB HBM3: throughput per order (double)'
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
