from engine.match.enginepipe import ROOT

__all__ = ["ROOT"]
