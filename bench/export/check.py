"""Loads tsgraph's exports with standard readers and checks they carry the same graph.

Usage: python3 check.py FOLDER   (FOLDER holds graph.jsonl, graph.graphml, graph.dot and
neo4j/{nodes,relationships}.csv, as bench/export/check.sh writes them)

GraphML is read with networkx, DOT with pydot, the Neo4j CSV files with the csv module
(checking the typed headers neo4j-admin expects). Each must give the node and edge counts
of the JSON lines export, and the same set of (source, kind, target) edges.
"""

import csv
import json
import sys
from collections import Counter
from pathlib import Path

import networkx
import pydot


def main(folder: Path) -> int:
    nodes, edges = set(), Counter()
    with open(folder / "graph.jsonl", encoding="utf-8") as lines:
        for line in lines:
            item = json.loads(line)
            if item["type"] == "node":
                nodes.add(item["id"])
            else:
                edges[(item["source"], item["kind"], item["target"])] += 1

    graph = networkx.read_graphml(folder / "graph.graphml")
    graphml_edges = Counter((s, d["kind"], t) for s, t, d in graph.edges(data=True))
    results = [("graphml (networkx)", set(graph.nodes), graphml_edges)]

    (dot,) = pydot.graph_from_dot_file(str(folder / "graph.dot"))
    unquote = lambda name: json.loads(name) if name.startswith('"') else name
    dot_nodes = {unquote(n.get_name()) for n in dot.get_nodes() if n.get_name() not in ("node", "edge", "graph")}
    dot_edges = Counter(
        (unquote(e.get_source()), unquote(e.get("kind")), unquote(e.get_destination()))
        for e in dot.get_edges()
    )
    results.append(("dot (pydot)", dot_nodes, dot_edges))

    with open(folder / "neo4j" / "nodes.csv", newline="", encoding="utf-8") as file:
        rows = csv.reader(file)
        header = next(rows)
        assert header[:2] == ["id:ID", ":LABEL"], header
        neo_nodes = {row[0] for row in rows}
    with open(folder / "neo4j" / "relationships.csv", newline="", encoding="utf-8") as file:
        rows = csv.reader(file)
        header = next(rows)
        assert header[:3] == [":START_ID", ":END_ID", ":TYPE"], header
        neo_edges = Counter((row[0], row[2], row[1]) for row in rows)
    results.append(("neo4j csv", neo_nodes, neo_edges))

    failed = False
    print(f"{'format':<20} {'nodes':>8} {'edges':>8}  same as jsonl")
    print(f"{'jsonl':<20} {len(nodes):>8} {sum(edges.values()):>8}")
    for name, found_nodes, found_edges in results:
        same = found_nodes == nodes and found_edges == edges
        failed |= not same
        print(f"{name:<20} {len(found_nodes):>8} {sum(found_edges.values()):>8}  {'yes' if same else 'NO'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
