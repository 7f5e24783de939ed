"""Plots (matplotlib, static) and widget explorers (ipywidgets) on top of the pooltutor core.

The core never imports this package.  Every ``plot_*`` function works under
the Agg backend and takes an optional ``ax``; widgets only wire controls to
those functions.
"""
