import discord


def test_x():
    print(discord.__file__, __name__)
    assert hasattr(discord, "Client")
