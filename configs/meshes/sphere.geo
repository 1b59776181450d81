// A dielectric sphere (radius 0.5) in an air box [-1.5,1.5]^3, for configs/sphere_plane_wave.json.
// Physical groups: volumes "sphere" and "air", surface "outer" (the six box faces).
// Regenerate (gmsh 4.8.4, from configs/meshes/):
//   gmsh sphere.geo -3 -format msh41 -o sphere.msh
SetFactory("OpenCASCADE");
DefineConstant[ h = 0.35 ];   // mesh size in air
DefineConstant[ hs = 0.18 ];  // mesh size on the sphere
Mesh.RandomSeed = 1;
Box(1) = {-1.5, -1.5, -1.5, 3, 3, 3};
Sphere(2) = {0, 0, 0, 0.5};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2}; Delete; }
// After the fragment: volume 2 is the sphere, volume 3 the air around it.
s() = Boundary{ Volume{2}; };
b() = Boundary{ Volume{3}; };
outer() = {};
For i In {0:#b()-1}
  If (Abs(b(i)) != Abs(s(0)))
    outer() += Abs(b(i));
  EndIf
EndFor
Physical Volume("sphere", 1) = {2};
Physical Volume("air", 2) = {3};
Physical Surface("outer", 1) = {outer()};
MeshSize{ PointsOf{ Volume{3}; } } = h;
MeshSize{ PointsOf{ Volume{2}; } } = hs;
