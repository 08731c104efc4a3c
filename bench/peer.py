# The peers of gravf-tui bench: scipy and numpy doing the same work as the
# engine being measured, on the same graph. gravf-tui writes the graph and
# runs this script once per timed repetition; the script times only the work
# (never the loading) with perf_counter and prints one JSON object.
#
#   peer.py cc   PREFIX          scipy.sparse.csgraph.connected_components
#   peer.py pr   PREFIX ITERS D  ITERS PageRank steps, one SpMV each (float32)
#   peer.py csr  PREFIX          numpy reads the CSR arrays from disk
#   peer.py read EDGEFILE        numpy parses a whitespace edge list, scipy
#                                builds the symmetric, deduplicated CSR
#
# PREFIX.offsets and PREFIX.adj hold the CSR as little-endian uint32 arrays
# (V+1 offsets, then the arcs), exactly the arrays of graph.Graph.
import json
import sys
import time

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components


def load(prefix):
    off = np.fromfile(prefix + ".offsets", dtype="<u4").astype(np.int64)
    adj = np.fromfile(prefix + ".adj", dtype="<u4").astype(np.int32)
    n = len(off) - 1
    data = np.ones(len(adj), dtype=np.float32)
    return sp.csr_matrix((data, adj, off), shape=(n, n)), off


def cc(prefix):
    a, _ = load(prefix)
    t = time.perf_counter()
    n, labels = connected_components(a, directed=False)
    dt = time.perf_counter() - t
    return {"seconds": dt, "components": int(n)}


def pr(prefix, iters, d):
    a, off = load(prefix)
    n = a.shape[0]
    deg = np.diff(off).astype(np.float32)
    inv = np.zeros(n, dtype=np.float32)
    inv[deg > 0] = 1.0 / deg[deg > 0]
    at = a.T.tocsr()  # rank flows along in-edges; built before the clock starts
    base = np.float32((1.0 - d) / n)
    r = np.full(n, 1.0 / n, dtype=np.float32)
    t = time.perf_counter()
    for _ in range(iters):
        r = base + np.float32(d) * (at @ (r * inv))
    dt = time.perf_counter() - t
    return {"seconds": dt, "rank_sum": float(r.sum(dtype=np.float64)), "rank_max": float(r.max())}


def csr(prefix):
    t = time.perf_counter()
    off = np.fromfile(prefix + ".offsets", dtype="<u4")
    adj = np.fromfile(prefix + ".adj", dtype="<u4")
    dt = time.perf_counter() - t
    return {"seconds": dt, "arcs": int(len(adj)), "vertices": int(len(off) - 1)}


def read(path):
    t = time.perf_counter()
    xs = np.fromfile(path, dtype=np.int64, sep=" ")
    src, dst = xs[0::2], xs[1::2]
    keep = src != dst
    src, dst = src[keep], dst[keep]
    n = int(max(src.max(), dst.max())) + 1
    rows = np.concatenate([src, dst])
    cols = np.concatenate([dst, src])
    a = sp.coo_matrix((np.ones(len(rows), dtype=np.int8), (rows, cols)), shape=(n, n)).tocsr()
    a.sum_duplicates()
    dt = time.perf_counter() - t
    return {"seconds": dt, "arcs": int(a.nnz), "vertices": n}


def main(argv):
    cmd = argv[1]
    if cmd == "cc":
        out = cc(argv[2])
    elif cmd == "pr":
        out = pr(argv[2], int(argv[3]), float(argv[4]))
    elif cmd == "csr":
        out = csr(argv[2])
    elif cmd == "read":
        out = read(argv[2])
    else:
        raise SystemExit("unknown peer command " + cmd)
    out["scipy"] = scipy.__version__
    out["numpy"] = np.__version__
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main(sys.argv)
