"""Test support: an emulated adb device (fake_adbd) and helpers to drive the real adb client against it."""
