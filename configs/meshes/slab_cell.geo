// A unit cell periodic in x and y, for configs/slab_cell.json: [0,1]^2 x [-3,3] with a
// dielectric slab 1 <= z <= 5/3 (docs/PERIODIC.md). Each side x = 1 (y = 1) is meshed as the
// side x = 0 (y = 0) moved by one period (Gmsh's Periodic Surface, one pair of pieces at a
// time: the slab cuts each side in three).
// Physical groups: volumes "air" (below and above the slab) and "slab"; surfaces "xmin",
// "xmax", "ymin", "ymax" (the periodic pairs) and "zmin", "zmax" (absorbing).
// Regenerate (gmsh 4.8.4, from configs/meshes/):
//   gmsh slab_cell.geo -3 -format msh22 -o slab_cell.msh
SetFactory("OpenCASCADE");
Box(1) = {0, 0, -3, 1, 1, 6};
Box(2) = {0, 0, 1, 1, 1, 2/3};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2}; Delete; }
e = 1e-6;
Mesh.MeshSizeMax = 0.3;
sx0() = Surface In BoundingBox{-e, -e, -3-e, e, 1+e, 3+e};
sy0() = Surface In BoundingBox{-e, -e, -3-e, 1+e, e, 3+e};
// the x = 1 side meshed as the x = 0 side moved by (1, 0, 0); y likewise
For i In {0 : #sx0() - 1}
  bb() = BoundingBox Surface{sx0(i)};
  s() = Surface In BoundingBox{bb(0)+1-e, bb(1)-e, bb(2)-e, bb(3)+1+e, bb(4)+e, bb(5)+e};
  Periodic Surface{s(0)} = {sx0(i)} Translate{1, 0, 0};
EndFor
For i In {0 : #sy0() - 1}
  bb() = BoundingBox Surface{sy0(i)};
  s() = Surface In BoundingBox{bb(0)-e, bb(1)+1-e, bb(2)-e, bb(3)+e, bb(4)+1+e, bb(5)+e};
  Periodic Surface{s(0)} = {sy0(i)} Translate{0, 1, 0};
EndFor
Physical Surface("xmin") = sx0();
Physical Surface("xmax") = Surface In BoundingBox{1-e, -e, -3-e, 1+e, 1+e, 3+e};
Physical Surface("ymin") = sy0();
Physical Surface("ymax") = Surface In BoundingBox{-e, 1-e, -3-e, 1+e, 1+e, 3+e};
Physical Surface("zmin") = Surface In BoundingBox{-e, -e, -3-e, 1+e, 1+e, -3+e};
Physical Surface("zmax") = Surface In BoundingBox{-e, -e, 3-e, 1+e, 1+e, 3+e};
Physical Volume("slab") = Volume In BoundingBox{-e, -e, 1-e, 1+e, 1+e, 5/3+e};
Physical Volume("air") = Volume In BoundingBox{-e, -e, -3-e, 1+e, 1+e, 1+e};
Physical Volume("air") += Volume In BoundingBox{-e, -e, 5/3-e, 1+e, 1+e, 3+e};
