"""The policy-value network and its ONNX export, the int8 twin, and a shipped net turned back into
torch weights."""
