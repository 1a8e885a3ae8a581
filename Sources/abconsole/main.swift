print("abconsole")
