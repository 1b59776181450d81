# DOF/s per order: tuned, default and baseline variants, and the roofline bound.
# columns: N tuned default baseline bound (MDOF/s)
$d << EOD
3 26627.9 19486.3 13825.9 79920.4
4 18413.4 11279.4 11043.4 83486.8
5 19890 13072.5 11808.4 60152.7
6 14367.4 10071 9329.19 42650.9
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
