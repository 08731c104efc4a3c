// Package graph owns the graphs that gravf-tui models, simulates and exports:
// an immutable CSR representation with uint32 vertex ids, the mapping back to
// the vertex labels of the input file, seeded generators, readers for the
// common public formats, statistics, and the partitioners that distribute
// vertices and edges over FPGAs and processing elements (PEs).
//
// Graphs are undirected by default, as in the original GraVF code base: every
// input edge {u,v} becomes the two arcs u->v and v->u. Self-loops and
// duplicate edges are dropped and counted, never silently kept.
package graph
