set terminal pngcairo size 1300,480 font ',10'
set output 'isa.png'
set multiplot layout 1,2
set grid
set key top left
set xlabel 'order N'
set title 'default variant: most registers of any kernel'
set ylabel 'registers (NVIDIA) / VGPRs (AMD) per work-item'
plot '-' with linespoints title 'nvidia-sm90 float', '-' with linespoints title 'nvidia-sm90 double', '-' with linespoints title 'amd-gfx90a float', '-' with linespoints title 'amd-gfx90a double'
1 55
2 127
3 70
4 72
5 76
6 70
7 76
8 72
e
1 72
2 247
3 136
4 140
5 138
6 134
7 140
8 136
e
1 82
2 84
3 136
4 102
5 124
6 142
7 142
8 128
e
1 98
2 98
3 160
4 125
5 158
6 168
7 156
8 168
e
set title 'kernels that spill (all families, float and double)'
set ylabel 'kernels with spill or scratch > 0'
set yrange [0:*]
plot '-' with linespoints title 'amd-gfx90a', '-' with linespoints title 'intel-dg2', '-' with linespoints title 'intel-pvc', '-' with linespoints title 'nvidia-sm90'
1 12
2 13
3 13
4 15
5 8
6 7
7 3
8 3
e
1 14
2 15
3 15
4 15
5 10
6 6
7 2
8 2
e
1 48
2 54
3 51
4 53
5 35
6 31
7 11
8 10
e
1 0
2 0
3 0
4 0
5 0
6 0
7 0
8 0
e
unset multiplot
