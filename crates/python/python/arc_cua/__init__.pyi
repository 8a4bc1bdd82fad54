from .api import execute_payload as execute_payload
from .api import result_to_dict as result_to_dict
from .api import subtask_from_dict as subtask_from_dict
from .errors import InvalidDecision as InvalidDecision
from .errors import StaleDesktopState as StaleDesktopState
from .errors import UnsupportedDesktopAction as UnsupportedDesktopAction
from .models import DEFAULT_HOTKEYS as DEFAULT_HOTKEYS
from .models import DEFAULT_PRESS_KEYS as DEFAULT_PRESS_KEYS
from .models import SCROLL_DIRECTIONS as SCROLL_DIRECTIONS
from .models import ActionKind as ActionKind
from .models import ActionRecord as ActionRecord
from .models import Bounds as Bounds
from .models import Decision as Decision
from .models import DesktopElement as DesktopElement
from .models import DesktopSnapshot as DesktopSnapshot
from .models import ExecutableAction as ExecutableAction
from .models import ExecutionResult as ExecutionResult
from .models import StepEvent as StepEvent
from .models import Subtask as Subtask
from .models import TerminalKind as TerminalKind
from .models import VerifyFn as VerifyFn
from .runtime import DesktopExecutor as DesktopExecutor
from .runtime import RuntimeConfig as RuntimeConfig

__all__: list[str]
