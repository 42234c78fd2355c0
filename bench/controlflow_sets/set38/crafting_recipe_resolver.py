"""Survival-crafting game server: fulfil a queue of crafting orders from a player's inventory,
recursively crafting missing intermediates (smelting needs a furnace), giving up after
repeated failures.

Kind X. Constructs: 1 2 3 5 6 7 9
"""
import torch
import torch.nn as nn

ITEMS = ("wood", "stone", "iron_ore", "coal", "plank", "stick", "ingot", "pickaxe", "furnace")
WOOD, STONE, ORE, COAL, PLANK, STICK, INGOT, PICKAXE, FURNACE = range(len(ITEMS))
RECIPES = {
    PLANK: [(WOOD, 1)],
    STICK: [(PLANK, 2)],
    INGOT: [(ORE, 1), (COAL, 1)],
    PICKAXE: [(STICK, 2), (INGOT, 3)],
    FURNACE: [(STONE, 8)],
}


class CraftingResolver(nn.Module):
    def __init__(self, max_failures=2):
        super().__init__()
        self.max_failures = max_failures
        self.register_buffer("eye", torch.eye(len(ITEMS), dtype=torch.long))

    def ensure(self, item, qty, stock):
        """Make sure `qty` of `item` is in stock, crafting the shortfall if possible."""
        have = stock[item]
        if have >= qty:
            return True, stock
        if item not in RECIPES:
            return False, stock          # raw material: cannot be crafted
        missing = int((qty - have).item())
        for _ in range(missing):
            ok, stock = self.craft_one(item, stock)
            if not ok:
                return False, stock
        return True, stock

    def craft_one(self, item, stock):
        if item == INGOT:
            # smelting needs a furnace (not consumed)
            ok, stock = self.ensure(FURNACE, 1, stock)
            if not ok:
                return False, stock
        for ingredient, n in RECIPES[item]:
            ok, stock = self.ensure(ingredient, n, stock)
            if not ok:
                return False, stock
        for ingredient, n in RECIPES[item]:
            stock = stock - n * self.eye[ingredient]
        return True, stock + self.eye[item]

    def forward(self, inventory, orders):
        stock = inventory.clamp(0, 64)
        done = []
        failures = 0
        for k in range(orders.shape[0]):
            order = orders[k]
            if order == PICKAXE:
                ok, stock = self.craft_one(PICKAXE, stock)
            elif order == INGOT:
                ok, stock = self.craft_one(INGOT, stock)
            elif order == STICK:
                ok, stock = self.craft_one(STICK, stock)
            elif order == FURNACE:
                ok, stock = self.craft_one(FURNACE, stock)
            else:
                ok = False          # unknown / raw item id in the queue
            done.append(torch.ones(()) if ok else torch.zeros(()))
            if not ok:
                failures += 1
                if failures >= self.max_failures:
                    break
        result = torch.stack(done)
        if result.shape[0] < orders.shape[0]:
            result = torch.cat([result, torch.full((orders.shape[0] - result.shape[0],), -1.0)])
        return result, stock


def model():
    torch.manual_seed(14)
    return CraftingResolver().eval()


def _make_inv(wood=0, stone=0, ore=0, coal=0, plank=0, stick=0, ingot=0, pickaxe=0, furnace=0):
    return torch.tensor([wood, stone, ore, coal, plank, stick, ingot, pickaxe, furnace], dtype=torch.long)


def example_inputs():
    # raw materials only: first pickaxe builds a furnace, planks, sticks and ingots on the way
    return (_make_inv(wood=6, stone=9, ore=4, coal=4), torch.tensor([PICKAXE, STICK, INGOT]))


def dynamic_shapes():
    return (None, {0: torch.export.Dim("orders", min=2, max=32)})


def verify_inputs():
    return [
        example_inputs(),   # deep recursive crafting; sticks from leftover planks; ingot with existing furnace
        (_make_inv(stick=2, ingot=3, furnace=1), torch.tensor([PICKAXE, PICKAXE])),
        # ^ first pickaxe from stock (nothing to craft), second fails: no wood for planks (raw-material branch);
        #   only one failure, queue ends normally
        (_make_inv(wood=1, stone=3), torch.tensor([FURNACE, 2, STICK, INGOT])),
        # ^ furnace fails (stone short), raw id 2 ordered -> second failure -> break, rest padded with -1
        (_make_inv(plank=1, wood=0, ore=1, coal=0, furnace=1), torch.tensor([STICK, INGOT, FURNACE, STICK])),
        # ^ stick fails after crafting loop (1 plank short, no wood), ingot fails on coal; break
        (_make_inv(wood=3, stone=8, ore=1, coal=1, furnace=0), torch.tensor([FURNACE, INGOT, STICK, STICK])),
        # ^ furnace crafted; ingot smelted with it; sticks from wood; second stick fails on wood (1 failure)
        (_make_inv(stone=2, ore=2, coal=2), torch.tensor([INGOT, PICKAXE])),
        # ^ ingot fails because no furnace can be built; pickaxe fails too: break on the last order (no padding)
    ]

