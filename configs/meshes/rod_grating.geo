// A grating of dielectric rods: one rod (radius 0.25, along x, eps = 4 in
// configs/rod_grating.json) in a unit cell periodic in x and y, [0,1]^2 x [-3,3]. The rod
// crosses the cell's x sides, so second-order (curved) elements lie on the periodic pair x.
// Each side x = 1 (y = 1) is meshed as the side x = 0 (y = 0) moved by one period, piece by
// piece (Gmsh's Periodic Surface; a piece's partner is the piece of the same bounding box).
// Physical groups: volumes "rod" and "air"; surfaces "xmin", "xmax", "ymin", "ymax" (the
// periodic pairs), "zmin", "zmax".
// Regenerate (gmsh 4.8.4, from configs/meshes/):
//   gmsh rod_grating.geo -3 -order 2 -format msh22 -o rod_grating.msh
SetFactory("OpenCASCADE");
Box(1) = {0, 0, -3, 1, 1, 6};
Cylinder(2) = {0, 0.5, 0, 1, 0, 0, 0.25};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2}; Delete; }
e = 1e-6;
Mesh.MeshSizeMax = 0.3;

sx0() = Surface In BoundingBox{-e, -e, -3-e, e, 1+e, 3+e};
sy0() = Surface In BoundingBox{-e, -e, -3-e, 1+e, e, 3+e};
For i In {0 : #sx0() - 1}
  bb() = BoundingBox Surface{sx0(i)};
  s() = Surface In BoundingBox{bb(0)+1-e, bb(1)-e, bb(2)-e, bb(3)+1+e, bb(4)+e, bb(5)+e};
  For j In {0 : #s() - 1}
    bj() = BoundingBox Surface{s(j)};
    If (Fabs(bj(1) - bb(1)) + Fabs(bj(2) - bb(2)) + Fabs(bj(4) - bb(4)) + Fabs(bj(5) - bb(5)) < 1e-5)
      Periodic Surface{s(j)} = {sx0(i)} Translate{1, 0, 0};
    EndIf
  EndFor
EndFor
For i In {0 : #sy0() - 1}
  bb() = BoundingBox Surface{sy0(i)};
  s() = Surface In BoundingBox{bb(0)-e, bb(1)+1-e, bb(2)-e, bb(3)+e, bb(4)+1+e, bb(5)+e};
  For j In {0 : #s() - 1}
    bj() = BoundingBox Surface{s(j)};
    If (Fabs(bj(0) - bb(0)) + Fabs(bj(2) - bb(2)) + Fabs(bj(3) - bb(3)) + Fabs(bj(5) - bb(5)) < 1e-5)
      Periodic Surface{s(j)} = {sy0(i)} Translate{0, 1, 0};
    EndIf
  EndFor
EndFor
Physical Surface("xmin") = sx0();
Physical Surface("xmax") = Surface In BoundingBox{1-e, -e, -3-e, 1+e, 1+e, 3+e};
Physical Surface("ymin") = sy0();
Physical Surface("ymax") = Surface In BoundingBox{-e, 1-e, -3-e, 1+e, 1+e, 3+e};
Physical Surface("zmin") = Surface In BoundingBox{-e, -e, -3-e, 1+e, 1+e, -3+e};
Physical Surface("zmax") = Surface In BoundingBox{-e, -e, 3-e, 1+e, 1+e, 3+e};
Physical Volume("rod") = Volume In BoundingBox{-e, 0.25-e, -0.25-e, 1+e, 0.75+e, 0.25+e};
Physical Volume("air") = Volume In BoundingBox{-e, -e, -3-e, 1+e, 1+e, 3+e};
Physical Volume("air") -= Volume In BoundingBox{-e, 0.25-e, -0.25-e, 1+e, 0.75+e, 0.25+e};
