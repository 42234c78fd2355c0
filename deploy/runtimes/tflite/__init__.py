"""runtimes/tflite"""
