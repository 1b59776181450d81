// A sphere (radius 0.5) lit by a plane wave, for its bistatic radar cross section
// (configs/sphere_rcs.json, configs/sphere_rcs_eps4.json): the total-field/scattered-field
// box [-0.8,0.8]^3 around the sphere, the closed surface "ntff" (the box [-1,1]^3, in the
// scattered-field region) where the DFT of E and H is taken for the near-to-far-field
// transform, air out to [-1.2,1.2]^3 and a CFS-PML layer 0.5 thick out to [-1.7,1.7]^3,
// backed by PEC.
//   pec = 1: the sphere is a hole whose surface "sphere" is a PEC boundary (inside not
//            meshed); pec = 0: the sphere is the volume "sphere" (give it a material).
// Physical groups: volumes "air" (tag 2), "pml" (3) and, with pec = 0, "sphere" (1);
// surfaces "outer" (1, the PML's back), "tfsf" (2), "ntff" (3) and, with pec = 1,
// "sphere" (4).
// Regenerate (gmsh 4.8.4, from configs/meshes/; byte for byte with Mesh.RandomSeed below):
//   gmsh sphere_rcs.geo -3 -order 2 -format msh41 -o sphere_rcs.msh
//   gmsh sphere_rcs.geo -3 -order 2 -format msh41 -setnumber pec 0 -o sphere_rcs_eps4.msh
// Second order: the elements along the sphere are curved (docs/MESHING.md, "Curved
// elements"): 5030 tetrahedra, 311 of them curved (PEC); 5276, 521 curved (eps_r = 4).
// Without -order 2 the same commands give the straight-sided mesh of the same vertices
// (tests/ntff/test_ntff_sphere_rcs_matches_mie.c compares the two). Other sizes:
// -setnumber h 0.3 -setnumber hs 0.15 ... (docs/notes/sphere-meshes-2026-11-27.md).
SetFactory("OpenCASCADE");
DefineConstant[ pec = 1 ];     // 1: PEC sphere (hole), 0: dielectric sphere (volume)
DefineConstant[ h = 0.45 ];    // mesh size in air
DefineConstant[ hp = 0.55 ];   // mesh size in the PML
DefineConstant[ hs = 0.25 ];   // mesh size on the sphere
Mesh.RandomSeed = 1;
Box(1) = {-1.7, -1.7, -1.7, 3.4, 3.4, 3.4}; // the PML's outer box
Box(2) = {-1.2, -1.2, -1.2, 2.4, 2.4, 2.4}; // the physical domain
Box(3) = {-1, -1, -1, 2, 2, 2};             // the NTFF surface
Box(4) = {-0.8, -0.8, -0.8, 1.6, 1.6, 1.6}; // the TF/SF box
Sphere(5) = {0, 0, 0, 0.5};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2, 3, 4, 5}; Delete; }
e = 1e-3;
vs() = Volume In BoundingBox{-0.5-e, -0.5-e, -0.5-e, 0.5+e, 0.5+e, 0.5+e};
vd() = Volume In BoundingBox{-1.2-e, -1.2-e, -1.2-e, 1.2+e, 1.2+e, 1.2+e};
va() = Volume{:};
vair() = vd();
vair() -= vs();
vpml() = va();
vpml() -= vd();
ss() = Surface In BoundingBox{-0.5-e, -0.5-e, -0.5-e, 0.5+e, 0.5+e, 0.5+e};
st() = Surface In BoundingBox{-0.8-e, -0.8-e, -0.8-e, 0.8+e, 0.8+e, 0.8+e};
st() -= ss();
sn() = Surface In BoundingBox{-1-e, -1-e, -1-e, 1+e, 1+e, 1+e};
sn() -= ss();
sn() -= st();
sd() = Surface In BoundingBox{-1.2-e, -1.2-e, -1.2-e, 1.2+e, 1.2+e, 1.2+e};
sa() = Surface{:};
so() = sa();
so() -= sd();
so() -= Abs(Boundary{ Volume{vd()}; });
MeshSize{ PointsOf{ Volume{vpml()}; } } = hp;
MeshSize{ PointsOf{ Volume{vair()}; } } = h;
MeshSize{ PointsOf{ Volume{vs()}; } } = hs;
If (pec)
  Recursive Delete { Volume{vs()}; }
  Physical Surface("sphere", 4) = {ss()};
Else
  Physical Volume("sphere", 1) = {vs()};
EndIf
Physical Volume("air", 2) = {vair()};
Physical Volume("pml", 3) = {vpml()};
Physical Surface("outer", 1) = {so()};
Physical Surface("tfsf", 2) = {st()};
Physical Surface("ntff", 3) = {sn()};
