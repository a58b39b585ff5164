from engine.enginepipe import ROOT

__all__ = ["ROOT"]
