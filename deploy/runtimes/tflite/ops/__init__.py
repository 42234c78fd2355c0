"""Built-in lowerings, one module per op family; importing this package registers them all."""

from deploy.runtimes.tflite.ops import (  # noqa: F401
    control_flow,
    conv_pool,
    conv_transpose,
    einsum,
    elementwise,
    grid_sample,
    indexing,
    loops,
    matmul,
    normalization,
    padding,
    recurrent,
    reduction,
    resize,
    shape_ops,
    slicing,
    spectral,
    training,
    unique,
)
