//! IB-Flip games replayed from their JSON trace alone.
