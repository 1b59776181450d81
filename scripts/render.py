#!/usr/bin/python3
"""Draw a planar slice of a dgtd VTU snapshot into a PNG, with no display.

    scripts/render.py FIELDS.vtu|FIELDS.pvtu OUT.png [--field E|H] [--axis x|y|z] [--at VALUE]
                      [--range LO,HI] [--edges] [--circle R] [--pixels P] [--title TEXT]

The slice is coloured by the magnitude of the field (|E| by default), with a colour bar;
--edges draws where the slice cuts the elements (the mesh), --circle R a circle of radius R
about the slice centre (the sphere of configs/sphere_plane_wave.json).

It uses Debian's /usr/bin/python3 with python3-vtk9 but no OpenGL: Debian's VTK needs an X
server for its render windows, so the picture is sampled instead. VTK probes the field at
the pixel centres of the slice plane (vtkProbeFilter, which evaluates the Lagrange cells
exactly), a lookup table colours the values, FreeType (vtkTextRenderer) draws the text,
and vtkPNGWriter writes the file.

Bad input (a missing or unreadable VTU, a PNG path whose directory does not exist or cannot
be written, --pixels outside 16..8192, --range not LO,HI with LO < HI, --at off the mesh)
stops with a message naming the argument and exit status 2; success is reported only once
the PNG is written.
"""
import argparse
import math
import os
import sys

import vtk

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


def parse_pair(text):
    parts = text.split(",")
    try:
        lo, hi = (float(q) for q in parts) if len(parts) == 2 else (None, None)
    except ValueError:
        lo = hi = None
    if lo is None or not (math.isfinite(lo) and math.isfinite(hi)):
        raise argparse.ArgumentTypeError("expected two numbers LO,HI (e.g. --range 0,1.5), got %r"
                                         % text)
    if not lo < hi:
        raise argparse.ArgumentTypeError("LO must be below HI, got %r; give the colour range "
                                         "as LO,HI with LO < HI (e.g. --range %g,%g)"
                                         % (text, min(lo, hi), max(lo, hi) if lo != hi else lo + 1))
    return lo, hi


MIN_PIXELS, MAX_PIXELS = 16, 8192


def parse_pixels(text):
    try:
        n = int(text)
    except ValueError:
        n = None
    if n is None or not MIN_PIXELS <= n <= MAX_PIXELS:
        raise argparse.ArgumentTypeError("expected a whole number from %d to %d (the size of the "
                                         "slice in pixels), got %r" % (MIN_PIXELS, MAX_PIXELS, text))
    return n


class Canvas:
    """An RGB picture as a flat bytearray, row 0 at the top."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(WHITE * (w * h))

    def set(self, x, y, rgb, alpha=1.0):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = 3 * (y * self.w + x)
            for c in range(3):
                self.px[i + c] = int(round(alpha * rgb[c] + (1 - alpha) * self.px[i + c]))

    def line(self, x0, y0, x1, y1, rgb, alpha=1.0):
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for s in range(n + 1):
            f = s / n
            self.set(int(round(x0 + f * (x1 - x0))), int(round(y0 + f * (y1 - y0))), rgb, alpha)

    def text(self, x, y, string, size=15):
        """Black text with its top-left corner at (x, y)."""
        prop = vtk.vtkTextProperty()
        prop.SetFontSize(size)
        prop.SetColor(0, 0, 0)
        prop.SetFontFamilyToArial()
        img = vtk.vtkImageData()
        dims = [0, 0]
        if not vtk.vtkTextRenderer.GetInstance().RenderString(prop, string, img, dims, 72):
            return 0
        nx, ny, _ = img.GetDimensions()
        a = img.GetPointData().GetScalars()
        for j in range(dims[1]):
            for i in range(dims[0]):
                alpha = a.GetComponent(j * nx + i, 3) / 255.0
                if alpha > 0:  # the image's row 0 is the bottom
                    self.set(x + i, y + dims[1] - 1 - j, BLACK, alpha)
        return dims[0]

    def image(self):
        img = vtk.vtkImageData()
        img.SetDimensions(self.w, self.h, 1)
        img.AllocateScalars(vtk.VTK_UNSIGNED_CHAR, 3)
        s = img.GetPointData().GetScalars()
        for y in range(self.h):  # VTK's row 0 is the bottom
            row = self.px[3 * (self.h - 1 - y) * self.w: 3 * (self.h - y) * self.w]
            base = 3 * y * self.w
            for i, v in enumerate(row):
                s.SetValue(base + i, v)
        return img


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("vtu")
    ap.add_argument("png")
    ap.add_argument("--field", default="E", choices=["E", "H"])
    ap.add_argument("--axis", default="z", choices=["x", "y", "z"], help="slice normal")
    ap.add_argument("--at", type=float, default=0.0, help="slice position on that axis")
    ap.add_argument("--range", type=parse_pair, default=None,
                    help="colour range LO,HI (default: the slice's own)")
    ap.add_argument("--edges", action="store_true", help="draw the mesh lines of the slice")
    ap.add_argument("--circle", type=float, default=0.0, help="outline a circle of radius R")
    ap.add_argument("--pixels", type=parse_pixels, default=360,
                    help="slice size in pixels (%d..%d)" % (MIN_PIXELS, MAX_PIXELS))
    ap.add_argument("--title", default=None)
    a = ap.parse_args()

    # Bad input is said before any work, in argparse's way (usage, "error:", status 2).
    if not os.path.isfile(a.vtu):
        ap.error("VTU %r: no such file; give a dgtd snapshot (fields_NNNNNN.vtu or .pvtu, "
                 "docs/OUTPUTS.md)" % a.vtu)
    if not a.vtu.endswith((".vtu", ".pvtu")):
        ap.error("VTU %r: expected a .vtu or .pvtu file (a dgtd snapshot)" % a.vtu)
    if not a.png.endswith(".png"):
        ap.error("PNG %r: expected the output picture's name ending in .png" % a.png)
    outdir = os.path.dirname(os.path.abspath(a.png))
    if not os.path.isdir(outdir):
        ap.error("PNG %r: the directory %s does not exist; create it or write elsewhere"
                 % (a.png, outdir))
    if not os.access(outdir, os.W_OK) or (os.path.exists(a.png) and not os.access(a.png, os.W_OK)):
        ap.error("PNG %r: cannot be written here (permissions); write elsewhere" % a.png)

    # VTK's own error text (reader internals) stays out of the way: the checks below say
    # what is wrong with the file.
    vtk.vtkObject.GlobalWarningDisplayOff()
    # A .pvtu (one piece per MPI rank) reads as one grid.
    if a.vtu.endswith(".pvtu"):
        reader = vtk.vtkXMLPUnstructuredGridReader()
    else:
        reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(a.vtu)
    reader.Update()
    grid = reader.GetOutput()
    if grid.GetNumberOfCells() == 0:
        ap.error("VTU %r: no cells read (not a dgtd VTU file, or an empty or damaged one)" % a.vtu)
    if grid.GetPointData().GetArray(a.field) is None:
        ap.error("VTU %r: no point array %r (a DFT file holds E_re, E_im; give a fields_NNNNNN "
                 "snapshot)" % (a.vtu, a.field))
    tv = grid.GetFieldData().GetArray("TimeValue")
    t = tv.GetValue(0) if tv is not None else None

    # The slice plane: axes u, v span it, w is its normal.
    w = "xyz".index(a.axis)
    u, v = [i for i in range(3) if i != w]
    b = grid.GetBounds()
    if not b[2 * w] <= a.at <= b[2 * w + 1]:
        ap.error("--at %g: the plane %s = %g misses the mesh (%s from %g to %g); give --at "
                 "in that range" % (a.at, a.axis, a.at, a.axis, b[2 * w], b[2 * w + 1]))
    lo_u, hi_u, lo_v, hi_v = b[2 * u], b[2 * u + 1], b[2 * v], b[2 * v + 1]
    scale = (a.pixels - 1) / max(hi_u - lo_u, hi_v - lo_v)
    nu = max(2, int(round((hi_u - lo_u) * scale)) + 1)
    nv = max(2, int(round((hi_v - lo_v) * scale)) + 1)

    # Sample the field at every pixel centre of the plane.
    plane = vtk.vtkPolyData()
    pts = vtk.vtkPoints()
    pts.SetNumberOfPoints(nu * nv)
    p = [0.0, 0.0, 0.0]
    p[w] = a.at
    for j in range(nv):
        p[v] = hi_v - j / scale  # pixel row 0 at the top
        for i in range(nu):
            p[u] = lo_u + i / scale
            pts.SetPoint(j * nu + i, p)
    plane.SetPoints(pts)
    probe = vtk.vtkProbeFilter()
    probe.SetInputData(plane)
    probe.SetSourceData(grid)
    # The default (static) locator misses points in some curved-cell bounding boxes; the
    # plain cell locator finds them all.
    probe.SetCellLocatorPrototype(vtk.vtkCellLocator())
    probe.Update()
    out = probe.GetOutput()
    vec = out.GetPointData().GetArray(a.field)
    valid = out.GetPointData().GetArray(probe.GetValidPointMaskArrayName())
    mag = [math.sqrt(sum(c * c for c in vec.GetTuple3(k))) if valid.GetValue(k) else None
           for k in range(nu * nv)]
    got = [m for m in mag if m is not None]
    if not got:
        ap.error("--at %g: no pixel of the plane %s = %g lies inside the mesh; move --at or "
                 "raise --pixels" % (a.at, a.axis, a.at))
    lo, hi = a.range if a.range else (min(got), max(got))
    if not hi > lo:  # a uniform slice (e.g. a zero field): a range the lookup table takes
        hi = lo + (abs(lo) if lo else 1.0)

    lut = vtk.vtkLookupTable()
    lut.SetHueRange(0.667, 0.0)  # blue (low) to red (high)
    lut.SetNumberOfTableValues(256)
    lut.SetRange(lo, hi)
    lut.Build()

    def colour(x):
        c = [0.0, 0.0, 0.0]
        lut.GetColor(min(max(x, lo), hi), c)
        return tuple(int(round(255 * q)) for q in c)

    margin, top, bar_w = 12, 34, 18
    width, height = margin + nu + 24 + bar_w + 56, top + nv + margin
    cv = Canvas(width, height)
    for j in range(nv):
        for i in range(nu):
            m = mag[j * nu + i]
            if m is not None:
                cv.set(margin + i, top + j, colour(m))

    def to_px(x):  # a point of the plane to canvas coordinates
        return margin + (x[u] - lo_u) * scale, top + (hi_v - x[v]) * scale

    if a.edges:  # where the element faces cross the plane
        cut = vtk.vtkPlane()
        origin = [0.0, 0.0, 0.0]
        origin[w] = a.at
        normal = [0.0, 0.0, 0.0]
        normal[w] = 1.0
        cut.SetOrigin(origin)
        cut.SetNormal(normal)
        cutter = vtk.vtkCutter()
        cutter.SetInputData(grid)
        cutter.SetCutFunction(cut)
        cutter.GenerateTrianglesOff()
        edges = vtk.vtkExtractEdges()
        edges.SetInputConnection(cutter.GetOutputPort())
        edges.Update()
        e = edges.GetOutput()
        ids = vtk.vtkIdList()
        for c in range(e.GetNumberOfCells()):
            e.GetCellPoints(c, ids)
            x0, y0 = to_px(e.GetPoint(ids.GetId(0)))
            x1, y1 = to_px(e.GetPoint(ids.GetId(ids.GetNumberOfIds() - 1)))
            cv.line(x0, y0, x1, y1, BLACK, 0.25)

    if a.circle > 0:
        cu, cvv = (lo_u + hi_u) / 2, (lo_v + hi_v) / 2
        n = int(2 * math.pi * a.circle * scale) + 8
        for s in range(n):
            q = [0.0, 0.0, 0.0]
            q[u] = cu + a.circle * math.cos(2 * math.pi * s / n)
            q[v] = cvv + a.circle * math.sin(2 * math.pi * s / n)
            x, y = to_px(q)
            for dx in (0, 1):
                for dy in (0, 1):
                    cv.set(int(x) + dx, int(y) + dy, WHITE)

    # Colour bar with five labels.
    bx = margin + nu + 24
    for j in range(nv):
        c = colour(hi - (hi - lo) * j / (nv - 1))
        for i in range(bar_w):
            cv.set(bx + i, top + j, c)
    for k in range(5):
        y = top + int(round((nv - 1) * k / 4))
        for i in range(4):
            cv.set(bx + bar_w + i, y, BLACK)
        cv.text(bx + bar_w + 6, max(0, y - 7), "%.2f" % (hi - (hi - lo) * k / 4), 13)

    title = a.title
    if title is None:
        title = "|%s| on %s = %g" % (a.field, a.axis, a.at)
        if t is not None:
            title += ",  t = %.2f" % t
    cv.text(margin, 8, title, 16)

    writer = vtk.vtkPNGWriter()
    writer.SetFileName(a.png)
    writer.SetInputData(cv.image())
    if os.path.exists(a.png):
        os.remove(a.png)  # so that an old picture is never taken for this one
    writer.Write()
    if writer.GetErrorCode() != 0 or not os.path.isfile(a.png) or os.path.getsize(a.png) == 0:
        sys.stderr.write("render.py: error: PNG %r: writing failed (VTK error %d: %s)\n"
                         % (a.png, writer.GetErrorCode(),
                            vtk.vtkErrorCode.GetStringFromErrorCode(writer.GetErrorCode())))
        sys.exit(1)
    print("render.py: %s -> %s (%dx%d, |%s| from %.3g to %.3g)"
          % (a.vtu, a.png, width, height, a.field, lo, hi))


if __name__ == "__main__":
    main()
