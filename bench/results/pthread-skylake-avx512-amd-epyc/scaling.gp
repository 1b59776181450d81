# DOF/s of the tuned variant as the mesh grows; one block per order.
# columns: DOFs MDOF/s min-MDOF/s max-MDOF/s K
$d0 << EOD
1152 46.2539 26.0069 119.676 48
3888 86.9468 78.501 104.39 162
9216 221.688 160.195 238.404 384
18000 206.958 5.96929 232.378 750
31104 382.01 160.555 383.045 1296
73728 370.089 326.064 373.984 3072
144000 413.63 239.403 560.942 6000
316368 384.153 376.122 393.799 13182
486000 362.748 358.054 374.61 20250
589824 324.521 316.682 332.922 24576
1.152e+06 266.317 259.949 269.639 48000
2.25e+06 233.595 226.068 235.331 93750
4.2899e+06 229.827 178.04 347.596 178746
EOD
$d1 << EOD
5760 116.519 115.352 117.064 48
19440 186.862 186.109 187.95 162
46080 307.501 305.012 309.447 384
90000 279.835 223.91 281.227 750
155520 274.803 257.557 275.888 1296
368640 276.692 211.406 280.084 3072
524880 281.386 278.68 285.784 4374
720000 278.12 274.417 281.364 6000
1.58184e+06 230.883 227.142 237.624 13182
2.94912e+06 186.852 184.38 189.316 24576
5.76e+06 174.21 166.532 207.692 48000
EOD
$d2 << EOD
16128 32.9656 31.2287 33.2088 48
54432 111.27 104.403 111.636 162
129024 130.456 126.661 131.2 384
252000 167.118 162.751 168.507 750
435456 140.911 129.681 142.745 1296
1.03219e+06 153.808 150.1 156.279 3072
2.016e+06 124.549 113.48 179.284 6000
4.42915e+06 119.069 109.399 139.103 13182
EOD
$d3 << EOD
47520 9.6298 6.77659 9.68935 48
160380 32.9298 32.5608 33.2872 162
380160 38.7618 38.3649 39.0357 384
742500 49.9571 49.4991 50.4015 750
1.28304e+06 41.5508 41.2693 55.6907 1296
3.04128e+06 46.7502 35.5153 63.8761 3072
EOD
set terminal pngcairo size 900,560 font ',10' noenhanced
set output 'scaling.png'
set title 'pthread-skylake-avx512-AMD EPYC: throughput vs problem size (float, tuned variants)'
set xlabel 'field DOFs'
set ylabel 'MDOF/s'
set logscale x
set grid
set key bottom right
set yrange [0:*]
plot $d0 using 1:2:3:4 with yerrorlines pt 7 lw 2 title 'N=1', \
  $d1 using 1:2:3:4 with yerrorlines pt 7 lw 2 title 'N=3', \
  $d2 using 1:2:3:4 with yerrorlines pt 7 lw 2 title 'N=5', \
  $d3 using 1:2:3:4 with yerrorlines pt 7 lw 2 title 'N=8', \
  $d0 using ($1 == 31104 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb 'black' title 'first size at >= 90% of the best', \
  $d1 using ($1 == 46080 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb 'black' notitle, \
  $d2 using ($1 == 252000 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb 'black' notitle, \
  $d3 using ($1 == 742500 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb 'black' notitle, \
  $d0 using ($1 == 486000 ? $1 : 1/0):2 with points pt 2 ps 2.5 lw 2 lc rgb 'black' title 'size of the order comparison', \
  $d1 using ($1 == 524880 ? $1 : 1/0):2 with points pt 2 ps 2.5 lw 2 lc rgb 'black' notitle, \
  $d2 using ($1 == 435456 ? $1 : 1/0):2 with points pt 2 ps 2.5 lw 2 lc rgb 'black' notitle, \
  $d3 using ($1 == 380160 ? $1 : 1/0):2 with points pt 2 ps 2.5 lw 2 lc rgb 'black' notitle
