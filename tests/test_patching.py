"""patched(): an attribute replaced within a block and restored after it, also when it raises."""

import pytest

from deploy.patching import patched


class Base:
    def size(self):
        return 1


class Child(Base):
    @classmethod
    def build(cls):
        return "built"


def test_a_replaced_attribute_is_restored_after_an_error():
    own = vars(Child)["build"]
    with pytest.raises(RuntimeError), patched(Child, "build", classmethod(lambda cls: "other")):
        assert Child.build() == "other"
        raise RuntimeError
    assert vars(Child)["build"] is own and Child.build() == "built"


def test_an_inherited_attribute_is_not_left_on_the_subclass():
    with patched(Child, "size", lambda self: 2):
        assert Child().size() == 2 and Base().size() == 1
    assert "size" not in vars(Child) and Child().size() == 1
