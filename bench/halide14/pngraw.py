#!/usr/bin/env python3
"""Converts between PNG and the raw files of halide14_bench (no dependencies).

  pngraw.py png2raw IN.png OUT.raw float32|uint16
      A gray PNG gives one plane, an RGB PNG three planes (x fastest, then y,
      then c), converted as Halide's load_and_convert_image does: 8 bit to
      float32 is v / 255, 16 bit to float32 is v / 65535, 8 bit to uint16 is
      v * 257, 16 bit to uint16 is v. Prints the size (W H C).
  pngraw.py raw2png IN.raw OUT.png float32|uint16|uint8 W H C
      Writes an 8-bit gray (C=1) or RGB (C=3) PNG for looking at an output:
      float32 is clamped to [0, 1] and times 255, uint16 is v >> 8.

For example, the inputs of Halide's apps (apps/images of the v14.0.0 tag):
  pngraw.py png2raw gray.png gray.f32 float32        # bilateral_grid, 1536 x 2560
  pngraw.py png2raw rgb.png rgb.u16 uint16           # local_laplacian
  pngraw.py png2raw bayer_raw.png bayer.u16 uint16   # camera_pipe, 2592 x 1968
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = hdr
    chans = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if chans is None or depth not in (8, 16) or interlace:
        raise SystemExit(f"{path}: only non-interlaced 8/16-bit gray/RGB(A) PNGs")
    bpp = chans * depth // 8
    stride = w * bpp
    raw = zlib.decompress(b"".join(idat))
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((a + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append(line)
        prev = line
    if depth == 8:
        samples = [list(r) for r in rows]
    else:
        samples = [list(struct.unpack(f">{w * chans}H", bytes(r))) for r in rows]
    return w, h, chans, depth, samples


def png2raw(inp, out, typ):
    w, h, chans, depth, rows = read_png(inp)
    c_out = 1 if chans in (1, 2) else 3
    vals = []
    for c in range(c_out):
        for y in range(h):
            r = rows[y]
            vals.extend(r[c::chans][:w])
    if typ == "float32":
        scale = 1.0 / (255 if depth == 8 else 65535)
        blob = struct.pack(f"<{len(vals)}f", *[v * scale for v in vals])
    elif typ == "uint16":
        blob = struct.pack(f"<{len(vals)}H", *[v * 257 if depth == 8 else v for v in vals])
    else:
        raise SystemExit("type must be float32 or uint16")
    open(out, "wb").write(blob)
    print(w, h, c_out)


def raw2png(inp, out, typ, w, h, c):
    data = open(inp, "rb").read()
    n = w * h * c
    fmt = {"float32": "f", "uint16": "H", "uint8": "B"}[typ]
    vals = struct.unpack(f"<{n}{fmt}", data[:n * struct.calcsize(fmt)])
    if typ == "float32":
        conv = [int(min(max(v, 0.0), 1.0) * 255 + 0.5) for v in vals]
    elif typ == "uint16":
        conv = [v >> 8 for v in vals]
    else:
        conv = list(vals)
    plane = w * h
    lines = []
    for y in range(h):
        line = bytearray([0])
        for x in range(w):
            for ch in range(c):
                line.append(conv[ch * plane + y * w + x])
        lines.append(bytes(line))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0 if c == 1 else 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(lines), 6)) + chunk(b"IEND", b"")
    open(out, "wb").write(png)


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == "png2raw":
        png2raw(a[1], a[2], a[3])
    elif len(a) == 7 and a[0] == "raw2png":
        raw2png(a[1], a[2], a[3], int(a[4]), int(a[5]), int(a[6]))
    else:
        raise SystemExit(__doc__)
