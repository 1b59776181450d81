// Unit cube with a region of elements 10x smaller than the rest around (0.3, 0.5, 0.5).
// Regenerate (gmsh 4.8, from configs/meshes/): gmsh graded_box.geo -3 -format msh22 -o graded_box.msh
SetFactory("OpenCASCADE");
Mesh.RandomSeed = 1;
Box(1) = {0, 0, 0, 1, 1, 1};
Physical Volume("domain", 1) = {1};
Physical Surface("walls", 1) = Surface{:};
Field[1] = Ball;
Field[1].Radius = 0.06; Field[1].Thickness = 0.25;
Field[1].XCenter = 0.3; Field[1].YCenter = 0.5; Field[1].ZCenter = 0.5;
Field[1].VIn = 0.025; Field[1].VOut = 0.25;
Background Field = 1;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
