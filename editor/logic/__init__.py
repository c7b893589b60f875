"""The editor's logic: plain, tested functions; the Streamlit pages only call these."""
