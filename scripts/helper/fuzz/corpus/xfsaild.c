/* cut from fs/xfs/xfs_trans_ail.c */
static int
xfsaild(
	void		*data)
{
	set_freezable();
	while (1) {
		if (tout && tout <= 20)
			set_current_state(TASK_KILLABLE|TASK_FREEZABLE);
		try_to_freeze();
	}
}
