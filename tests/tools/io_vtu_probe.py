#!/usr/bin/python3
"""Reads dgtd output with VTK itself, for tests/io/test_io_vtu_read_back_by_vtk.c.

  io_vtu_probe.py order N...         VTK's Lagrange tetra point order for each order N: per
                                     point id one line "N b0 b1 b2 b3"
                                     (vtkLagrangeTetra.ToBarycentricIndex)
  io_vtu_probe.py read FILE X Y Z... reads FILE with vtkXMLUnstructuredGridReader and prints
                                     points, cells, "type T COUNT" per cell type, time, the
                                     total cell volume, and for each point (X,Y,Z)
                                     "probe I VALID Ex Ey Ez Hx Hy Hz" via vtkProbeFilter
  io_vtu_probe.py pvd FILE           reads a .pvd collection: "steps N", then per dataset
                                     "time T NPOINTS" (NPOINTS from reading its .vtu)
  io_vtu_probe.py meta FILE          reads a .vtu or .pvtu: "array NAME TYPE" for each point
                                     array (VTK's type name), "cells NAME COUNT v1 v2 ..." for
                                     each cell array (its distinct values), "version STRING"
Prints "error ..." and exits 1 on failure. Needs python3-vtk9 (run with /usr/bin/python3).
"""
import sys

# The individual modules load in a fraction of the time of the whole "import vtk".
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkLagrangeTetra, vtkPolyData
from vtkmodules.vtkFiltersCore import vtkProbeFilter
from vtkmodules.vtkFiltersVerdict import vtkCellSizeFilter
from vtkmodules.vtkIOXML import vtkXMLPUnstructuredGridReader, vtkXMLUnstructuredGridReader


def order(n):
    npts = (n + 1) * (n + 2) * (n + 3) // 6
    tet = vtkLagrangeTetra()
    tet.GetPointIds().SetNumberOfIds(npts)
    tet.GetPoints().SetNumberOfPoints(npts)
    tet.Initialize()
    for i in range(npts):
        b = [0, 0, 0, 0]
        tet.ToBarycentricIndex(i, b)
        print(n, *b)


def read(path, coords):
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    if reader.GetErrorCode() != 0:
        print("error reader code", reader.GetErrorCode())
        sys.exit(1)
    grid = reader.GetOutput()
    print("points", grid.GetNumberOfPoints())
    print("cells", grid.GetNumberOfCells())
    counts = {}
    for c in range(grid.GetNumberOfCells()):
        t = grid.GetCellType(c)
        counts[t] = counts.get(t, 0) + 1
    for t in sorted(counts):
        print("type", t, counts[t])
    tv = grid.GetFieldData().GetArray("TimeValue")
    print("time", repr(tv.GetValue(0)) if tv else "none")
    for name in ("E", "H"):
        a = grid.GetPointData().GetArray(name)
        print("array", name, a.GetNumberOfComponents() if a else 0)
    # Volume by VTK's own cell geometry (sub-tetrahedra of Lagrange cells included).
    sizes = vtkCellSizeFilter()
    sizes.SetInputData(grid)
    sizes.SetComputeSum(True)
    sizes.Update()
    vol = sizes.GetOutput().GetFieldData().GetArray("Volume")
    print("volume", repr(vol.GetValue(0)) if vol else "none")

    pts = vtkPoints()
    pts.SetDataTypeToDouble()  # float points would move the probes by ~1e-8
    for i in range(0, len(coords), 3):
        pts.InsertNextPoint(coords[i], coords[i + 1], coords[i + 2])
    probe_in = vtkPolyData()
    probe_in.SetPoints(pts)
    probe = vtkProbeFilter()
    probe.SetInputData(probe_in)
    probe.SetSourceData(grid)
    probe.Update()
    out = probe.GetOutput()
    valid = out.GetPointData().GetArray(probe.GetValidPointMaskArrayName())
    e = out.GetPointData().GetArray("E")
    h = out.GetPointData().GetArray("H")
    for i in range(pts.GetNumberOfPoints()):
        vals = list(e.GetTuple3(i)) + list(h.GetTuple3(i))
        print("probe", i, int(valid.GetTuple1(i)), *[repr(v) for v in vals])


def pvd(path):
    # vtkPVDReader is ParaView's, not VTK's: parse the XML as it does, then load each file.
    import os
    import xml.etree.ElementTree as ET
    sets = ET.parse(path).getroot().find("Collection").findall("DataSet")
    print("steps", len(sets))
    for d in sets:
        reader = vtkXMLUnstructuredGridReader()
        reader.SetFileName(os.path.join(os.path.dirname(path), d.get("file")))
        reader.Update()
        print("time", repr(float(d.get("timestep"))), reader.GetOutput().GetNumberOfPoints())


def meta(path):
    reader = (vtkXMLPUnstructuredGridReader if path.endswith(".pvtu")
              else vtkXMLUnstructuredGridReader)()
    reader.SetFileName(path)
    reader.Update()
    if reader.GetErrorCode() != 0:
        print("error reader code", reader.GetErrorCode())
        sys.exit(1)
    grid = reader.GetOutput()
    pd, cd = grid.GetPointData(), grid.GetCellData()
    for i in range(pd.GetNumberOfArrays()):
        a = pd.GetArray(i)
        print("array", a.GetName(), a.GetDataTypeAsString())
    for i in range(cd.GetNumberOfArrays()):
        a = cd.GetArray(i)
        vals = sorted({int(a.GetTuple1(c)) for c in range(a.GetNumberOfTuples())})
        print("cells", a.GetName(), a.GetNumberOfTuples(), *vals)
    v = grid.GetFieldData().GetAbstractArray("dgtd_version")
    print("version", v.GetValue(0) if v else "none")


def main():
    try:
        if sys.argv[1] == "order":
            for n in sys.argv[2:]:
                order(int(n))
        elif sys.argv[1] == "read":
            read(sys.argv[2], [float(x) for x in sys.argv[3:]])
        elif sys.argv[1] == "pvd":
            pvd(sys.argv[2])
        elif sys.argv[1] == "meta":
            meta(sys.argv[2])
        else:
            print("error unknown command", sys.argv[1])
            sys.exit(1)
    except Exception as ex:  # report, never hang the C test
        print("error", type(ex).__name__, ex)
        sys.exit(1)


if __name__ == "__main__":
    main()
