"""The CUDA desktop path: AOTInductor packages (.pt2) for a CUDA GPU or the host CPU.

emit.emit_pt2 compiles an ExportedProgram into model.cuda.pt2 / model.cpu.pt2; session.load runs
one; eager.TorchSession is the eager / torch.compile baseline on the same device. Only torch is
needed here (imported lazily), never onnx or litert.
"""
