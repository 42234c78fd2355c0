"""ONNX backend: emit model.onnx from an ExportedProgram (torch.onnx dynamo + onnxsim), run it in onnxruntime."""
