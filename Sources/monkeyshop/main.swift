print("monkeyshop")
