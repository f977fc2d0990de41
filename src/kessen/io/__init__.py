"""File formats and input boundaries: JSON and TOML loading, validation, schemas."""
