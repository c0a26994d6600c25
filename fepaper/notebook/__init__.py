"""The notebook side: interactive widgets, the budgets every notebook starts with, and the
runner that executes the notebooks headless.
"""
