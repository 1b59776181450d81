set terminal pngcairo size 1300,480 font ',10'
set output 'isa.png'
set multiplot layout 1,2
set grid
set key top left
set xlabel 'order N'
set title 'default variant: most registers of any kernel'
set ylabel 'registers (NVIDIA) / VGPRs (AMD) per work-item'
plot '-' with linespoints title 'nvidia-sm90 float', '-' with linespoints title 'nvidia-sm90 double', '-' with linespoints title 'amd-gfx90a float', '-' with linespoints title 'amd-gfx90a double'
1 40
2 127
3 40
4 40
5 40
6 48
7 48
8 48
e
1 80
2 247
3 64
4 64
5 72
6 72
7 72
8 72
e
1 55
2 77
3 56
4 56
5 56
6 52
7 52
8 52
e
1 76
2 76
3 76
4 88
5 76
6 76
7 76
8 76
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
1 13
2 14
3 14
4 14
5 10
6 6
7 2
8 2
e
1 45
2 49
3 47
4 48
5 33
6 29
7 9
8 9
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
