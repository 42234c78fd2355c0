"""runtimes/cuda"""
