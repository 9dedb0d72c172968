"""verify stage of KDS Desk (see DESIGN.md)."""
