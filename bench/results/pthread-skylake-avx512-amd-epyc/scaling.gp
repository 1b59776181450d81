# DOF/s of the tuned variant as the mesh grows; one block per order.
# columns: DOFs MDOF/s min-MDOF/s max-MDOF/s K
$d0 << EOD
1152 103.078 43.5901 166.691 48
3888 269.775 160.423 278.092 162
9216 409.709 358.056 447.574 384
18000 396.074 390.388 427.32 750
31104 487.256 468.872 584.135 1296
73728 570.955 552.104 594.37 3072
144000 630.227 587.194 652.472 6000
316368 604.439 519.517 710.891 13182
486000 736.776 658.728 754.648 20250
589824 626.739 589.024 660.351 24576
1.152e+06 632.262 586.423 643.877 48000
2.25e+06 518.943 518.656 522.852 93750
4.2899e+06 435.912 432.201 451.3 178746
EOD
$d1 << EOD
5760 122.394 121.596 122.577 48
19440 184.15 146.687 229.118 162
46080 425.324 268.563 437.865 384
90000 392.189 240.174 393.477 750
155520 472.219 332.004 510.367 1296
368640 494.275 430.795 544.731 3072
524880 536.8 467.112 556.67 4374
720000 563.53 450.376 583.291 6000
1.58184e+06 513.754 323.962 524.064 13182
2.94912e+06 321.332 309.193 396.449 24576
5.76e+06 345.637 335.242 362.326 48000
EOD
$d2 << EOD
16128 29.1636 27.5542 30.3981 48
54432 88.195 83.7941 111.624 162
129024 138.256 126.909 162.992 384
252000 153.615 115.064 171.046 750
435456 147.752 98.6929 156.622 1296
1.03219e+06 179.225 106.195 190.052 3072
2.016e+06 180.23 117.347 192.908 6000
4.42915e+06 198.997 140.007 210.683 13182
EOD
$d3 << EOD
47520 16.4255 16.3449 16.7212 48
160380 52.9343 52.1459 53.1773 162
380160 63.0099 62.8355 64.2072 384
742500 80.3818 78.9484 81.0436 750
1.28304e+06 66.3398 63.3989 66.8261 1296
3.04128e+06 77.6907 72.3926 78.0876 3072
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
  $d0 using ($1 == 486000 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb 'black' title 'first size at >= 90% of the best', \
  $d1 using ($1 == 524880 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb 'black' notitle, \
  $d2 using ($1 == 1.03219e+06 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb 'black' notitle, \
  $d3 using ($1 == 742500 ? $1 : 1/0):2 with points pt 6 ps 3 lw 2 lc rgb 'black' notitle, \
  $d0 using ($1 == 486000 ? $1 : 1/0):2 with points pt 2 ps 2.5 lw 2 lc rgb 'black' title 'size of the order comparison', \
  $d1 using ($1 == 524880 ? $1 : 1/0):2 with points pt 2 ps 2.5 lw 2 lc rgb 'black' notitle, \
  $d2 using ($1 == 435456 ? $1 : 1/0):2 with points pt 2 ps 2.5 lw 2 lc rgb 'black' notitle, \
  $d3 using ($1 == 380160 ? $1 : 1/0):2 with points pt 2 ps 2.5 lw 2 lc rgb 'black' notitle
