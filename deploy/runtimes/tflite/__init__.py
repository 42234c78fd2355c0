"""The TFLite backend: our own lowering of an ONNX graph to the LiteRT flatbuffer, and its runtime.

- ``emit.emit_tflite(onnx_model, out_path)`` writes a .tflite (no TensorFlow involved);
- ``check.check_onnx(onnx_model)`` says which nodes lower and why the others do not;
- ``session.load(path)`` runs a .tflite in ai-edge-litert behind the common Session interface;
- ``registry.lower("OpType")`` registers a lowering (the built-in ones live in ``ops/``).
"""
