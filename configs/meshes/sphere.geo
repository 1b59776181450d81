// A dielectric sphere (radius 0.5) lit by a plane wave through a total-field/scattered-field
// box, for configs/sphere_plane_wave.json: the sphere inside the TF/SF box [-1,1]^3, air out
// to [-1.5,1.5]^3 (the scattered-field region), and a CFS-PML layer 0.5 thick out to
// [-2,2]^3, backed by PEC.
// Physical groups: volumes "sphere", "air" (both sides of the TF/SF surface) and "pml";
// surfaces "tfsf" (the six faces of the TF/SF box, interior) and "outer" (the PML's back).
// Regenerate (gmsh 4.8.4, from configs/meshes/):
//   gmsh sphere.geo -3 -format msh41 -o sphere.msh
// It stays first order (straight-sided), unlike sphere_rcs.msh: the case is the local time
// stepping benchmark (docs/TIME_STEPPING.md), and multirate stepping refuses curved elements.
SetFactory("OpenCASCADE");
DefineConstant[ h = 0.4 ];    // mesh size in air
DefineConstant[ hp = 0.5 ];   // mesh size in the PML
DefineConstant[ hs = 0.2 ];   // mesh size on the sphere
Mesh.RandomSeed = 1;
Box(1) = {-2, -2, -2, 4, 4, 4};       // the PML's outer box
Box(2) = {-1.5, -1.5, -1.5, 3, 3, 3}; // the physical domain
Box(3) = {-1, -1, -1, 2, 2, 2};       // the TF/SF box
Sphere(4) = {0, 0, 0, 0.5};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2, 3, 4}; Delete; }
e = 1e-3;
vs() = Volume In BoundingBox{-0.5-e, -0.5-e, -0.5-e, 0.5+e, 0.5+e, 0.5+e};
vt() = Volume In BoundingBox{-1-e, -1-e, -1-e, 1+e, 1+e, 1+e};
vd() = Volume In BoundingBox{-1.5-e, -1.5-e, -1.5-e, 1.5+e, 1.5+e, 1.5+e};
va() = Volume{:};
vin() = vt();
vin() -= vs();
vout() = vd();
vout() -= vt();
vpml() = va();
vpml() -= vd();
ss() = Surface In BoundingBox{-0.5-e, -0.5-e, -0.5-e, 0.5+e, 0.5+e, 0.5+e};
st() = Surface In BoundingBox{-1-e, -1-e, -1-e, 1+e, 1+e, 1+e};
st() -= ss();
sd() = Surface In BoundingBox{-1.5-e, -1.5-e, -1.5-e, 1.5+e, 1.5+e, 1.5+e};
sa() = Surface{:};
so() = sa();
so() -= sd();
so() -= Abs(Boundary{ Volume{vd()}; });
Physical Volume("sphere", 1) = {vs()};
Physical Volume("air", 2) = {vin(), vout()};
Physical Volume("pml", 3) = {vpml()};
Physical Surface("outer", 1) = {so()};
Physical Surface("tfsf", 2) = {st()};
MeshSize{ PointsOf{ Volume{vpml()}; } } = hp;
MeshSize{ PointsOf{ Volume{vout()}; } } = h;
MeshSize{ PointsOf{ Volume{vin()}; } } = h;
MeshSize{ PointsOf{ Volume{vs()}; } } = hs;
