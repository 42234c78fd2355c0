"""rewriters"""
