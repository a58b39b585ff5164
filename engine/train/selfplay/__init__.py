"""Self-play: the games, the replay buffer, the inference server for the workers, the bootstrap
from baseline games, and the resumable run loop."""
