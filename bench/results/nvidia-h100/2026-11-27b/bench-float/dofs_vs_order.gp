# DOF/s per order: tuned, default and baseline variants, and the roofline bound.
# columns: N tuned default baseline bound (MDOF/s)
$d << EOD
3 58935.5 38299.8 21470.1 154482
4 38367.5 25028.3 16315.9 161974
5 34545.5 22705.2 17782.9 120606
6 24359.9 14642.5 13717.5 85514.8
EOD
set terminal pngcairo size 900,560 font ',10' noenhanced
set output 'dofs_vs_order.png'
set title 'NVIDIA H100 80GB HBM3: throughput per order (float)'
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
