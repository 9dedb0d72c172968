"""index stage of KDS Desk (see DESIGN.md)."""
