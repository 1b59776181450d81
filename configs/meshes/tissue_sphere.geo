// A two-layer tissue sphere (muscle core of radius 2, fat shell to radius 2.6) near a
// dipole, for configs/tissue_dipole.json. Lengths in centimetres (the mesh unit L = 0.01 m:
// docs/UNITS.md): air out to the box [-4.5,4.5]^3 and a CFS-PML layer 2 thick out to
// [-6.5,6.5]^3, backed by PEC.
// Physical groups: volumes "muscle" (1), "fat" (2), "air" (3), "pml" (4); surface "outer"
// (1, the PML's back).
// Regenerate (gmsh 4.8.4, from configs/meshes/):
//   gmsh tissue_sphere.geo -3 -format msh41 -o tissue_sphere.msh
SetFactory("OpenCASCADE");
DefineConstant[ hm = 0.6 ];   // mesh size in the muscle (order 2: 7.6 nodes per wavelength at 1.8 GHz)
DefineConstant[ hf = 0.5 ];   // mesh size in the fat (a shell 0.6 thick)
DefineConstant[ ha = 3.0 ];   // mesh size in air
DefineConstant[ hp = 3.0 ];   // mesh size in the PML
Mesh.RandomSeed = 1;
Mesh.OptimizeNetgen = 1;     // fewer slivers in the thin fat shell and the air around it:
Mesh.OptimizeThreshold = 0.5; // they would set a small time step
Box(1) = {-6.5, -6.5, -6.5, 13, 13, 13};
Box(2) = {-4.5, -4.5, -4.5, 9, 9, 9};
Sphere(3) = {0, 0, 0, 2.6};
Sphere(4) = {0, 0, 0, 2};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2, 3, 4}; Delete; }
e = 1e-3;
vm() = Volume In BoundingBox{-2-e, -2-e, -2-e, 2+e, 2+e, 2+e};
vs() = Volume In BoundingBox{-2.6-e, -2.6-e, -2.6-e, 2.6+e, 2.6+e, 2.6+e};
vd() = Volume In BoundingBox{-4.5-e, -4.5-e, -4.5-e, 4.5+e, 4.5+e, 4.5+e};
va() = Volume{:};
vf() = vs();
vf() -= vm();
vair() = vd();
vair() -= vs();
vpml() = va();
vpml() -= vd();
sd() = Surface In BoundingBox{-4.5-e, -4.5-e, -4.5-e, 4.5+e, 4.5+e, 4.5+e};
sa() = Surface{:};
so() = sa();
so() -= sd();
so() -= Abs(Boundary{ Volume{vd()}; });
MeshSize{ PointsOf{ Volume{vpml()}; } } = hp;
MeshSize{ PointsOf{ Volume{vair()}; } } = ha;
MeshSize{ PointsOf{ Volume{vf()}; } } = hf;
MeshSize{ PointsOf{ Volume{vm()}; } } = hm;
Physical Volume("muscle", 1) = {vm()};
Physical Volume("fat", 2) = {vf()};
Physical Volume("air", 3) = {vair()};
Physical Volume("pml", 4) = {vpml()};
Physical Surface("outer", 1) = {so()};
