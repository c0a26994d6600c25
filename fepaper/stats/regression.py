"""A least-squares line and the prediction interval of a new observation at a point.

Examples
--------
>>> line = fit_line([1, 2, 3, 4], [2.1, 3.9, 6.2, 7.8])
>>> round(line.slope, 2), round(line.intercept, 2)
(1.94, 0.15)
>>> mid, low, high = line.predict(5)
>>> round(mid, 2), round(low, 2), round(high, 2)
(9.85, 8.47, 11.23)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Line", "fit_line"]


@dataclass(frozen=True)
class Line:
    """y = intercept + slope x, fitted by least squares to the points ``x``, ``y``, with the
    residual standard deviation ``residual_sd`` (n - 2 degrees of freedom)."""

    slope: float
    intercept: float
    residual_sd: float
    x: np.ndarray

    def predict(self, at: float, level: float = 0.95) -> tuple[float, float, float]:
        """``(mid, low, high)``: the line at ``at`` and the two-sided ``level`` prediction
        interval of a new observation there (Student's t with n - 2 degrees of freedom, the
        scatter about the line included: what statsmodels' ``get_prediction().summary_frame``
        calls ``obs_ci``). Needs scipy."""
        from scipy import stats

        if not 0 < level < 1:
            raise ValueError(f"level must be in (0, 1), got {level}")
        x, n = self.x, len(self.x)
        half = stats.t.ppf((1 + level) / 2, n - 2) * self.residual_sd * np.sqrt(
            1 + 1 / n + (at - x.mean()) ** 2 / np.sum((x - x.mean()) ** 2))
        mid = self.intercept + self.slope * at
        return float(mid), float(mid - half), float(mid + half)


def fit_line(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> Line:
    """The least-squares line of ``y`` on ``x`` (at least three points, two distinct ``x``)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 3 or np.ptp(x) == 0:
        raise ValueError(f"a line with a residual spread needs at least three points at two or more x, got "
                         f"x of shape {x.shape}, y of shape {y.shape}")
    slope, intercept = np.polyfit(x, y, 1)
    n = len(x)
    sd = float(np.sqrt(np.sum((y - (intercept + slope * x)) ** 2) / (n - 2)))
    return Line(float(slope), float(intercept), sd, x)
