"""Operator tools run by hand or by CI: benchmarks, the arena, database copy, a throwaway PostgreSQL, memory debugging."""
