"""Learning by self-play (AlphaZero-style) on the batched environments, in numpy alone.

:mod:`.net`: the policy-value network (an MLP with its backward pass and Adam);
:mod:`.puct`: its tree search over many games at once; :mod:`.train`: self-play and training
with checkpoints; :mod:`.evaluate`: strength with 95% intervals; :mod:`.agent`: a trained
network as the agent spec ``net:PATH``.  ``examples/alphazero.py`` runs it all
(docs/research.md).
"""

from .agent import NetAgent, net_agent
from .net import PolicyValueNet

__all__ = ["NetAgent", "PolicyValueNet", "net_agent"]
