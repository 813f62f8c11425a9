"""Placeholder."""


def normalize_for_matching(text: str) -> str:
    return text
