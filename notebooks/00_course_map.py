# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # pooltutor: course map
#
# Placeholder: this notebook will list the lessons on the arithmetic of
# pooling layers and link to each of them.

# %%
import pooltutor

print(pooltutor.__version__)
