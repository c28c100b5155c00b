"""Several server processes: changes fanned out through Redis, leases on game duties, and the
adoption of games whose process died."""
