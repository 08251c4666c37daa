#ifdef PEG
struct T_SRC {
	char *fl; int ln;
} T_SRC[NTRANS];

void
tr_2_src(int m, char *file, int ln)
{	T_SRC[m].fl = file;
	T_SRC[m].ln = ln;
}

void
putpeg(int n, int m)
{	printf("%5d	trans %4d ", m, n);
	printf("%s:%d\n",
		T_SRC[n].fl, T_SRC[n].ln);
}
#endif

void
settable(void)
{	Trans *T;
	Trans *settr(int, int, int, int, int, char *, int, int, int);

	trans = (Trans ***) emalloc(6*sizeof(Trans **));

	/* proctype 4: :init: */

	trans[4] = (Trans **) emalloc(20*sizeof(Trans *));

	T = trans[ 4][6] = settr(681,2,0,0,0,"ATOMIC", 0, 2, 0);
	T->nxt	= settr(681,2,1,0,0,"ATOMIC", 0, 2, 0);
	trans[4][1]	= settr(676,2,2,3,3,"(run Resolver(1))", 0, 2, 0);
	trans[4][2]	= settr(677,2,3,4,4,"(run Resolver(2))", 0, 2, 0);
	trans[4][3]	= settr(678,2,4,5,5,"(run S1())", 0, 2, 0);
	trans[4][4]	= settr(679,2,5,6,6,"(run S2())", 0, 2, 0);
	trans[4][5]	= settr(680,0,7,7,7,"(run S3())", 0, 2, 0);
	trans[4][7]	= settr(682,0,8,8,0,"((_nr_pr==1))", 1, 2, 0);
	trans[4][8]	= settr(683,0,9,9,0,"assert((winners==1))", 1, 2, 0);
	trans[4][9]	= settr(684,0,15,10,10,"c = 1", 0, 2, 0);
	trans[4][16]	= settr(691,0,15,1,0,".(goto)", 0, 2, 0);
	T = trans[4][15] = settr(690,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(690,0,10,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(690,0,13,0,0,"DO", 0, 2, 0);
	trans[4][10]	= settr(685,0,11,11,0,"((c<=4))", 0, 2, 0);
	trans[4][11]	= settr(686,0,12,12,0,"assert((ran[c]==1))", 1, 2, 0);
	trans[4][12]	= settr(687,0,15,13,13,"c = (c+1)", 0, 2, 0);
	trans[4][13]	= settr(688,0,18,2,0,"else", 0, 2, 0);
	trans[4][14]	= settr(689,0,18,1,0,"goto :b20", 0, 2, 0);
	trans[4][17]	= settr(692,0,18,1,0,"break", 0, 2, 0);
	trans[4][18]	= settr(693,0,19,14,0,"assert((word==((winner_kind<<2)|2)))", 1, 2, 0);
	trans[4][19]	= settr(694,0,0,15,15,"-end-", 0, 3500, 0);

	/* proctype 3: S3 */

	trans[3] = (Trans **) emalloc(125*sizeof(Trans *));

	T = trans[ 3][123] = settr(674,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(674,0,1,0,0,"sub-sequence", 0, 2, 0);
	trans[3][1]	= settr(552,0,27,16,16,"before[4] = done_mask", 1, 2, 0);
	T = trans[ 3][27] = settr(578,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(578,0,2,0,0,"sub-sequence", 0, 2, 0);
	trans[3][2]	= settr(553,0,24,17,17,"old = word", 1, 2, 0);
	trans[3][25]	= settr(576,0,24,1,0,".(goto)", 0, 2, 0);
	T = trans[3][24] = settr(575,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(575,0,3,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(575,0,7,0,0,"DO", 0, 2, 0);
	trans[3][3]	= settr(554,0,59,18,18,"(!((!(((old&2)!=0))&&((old&(4|8))==0))))", 0, 2, 0); /* m: 4 -> 59,0 */
	reached3[4] = 1;
	trans[3][4]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[3][5]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[3][6]	= settr(557,0,59,1,0,"goto :b17", 0, 2, 0);
	trans[3][7]	= settr(558,0,15,2,0,"else", 0, 2, 0);
	T = trans[ 3][15] = settr(566,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(566,2,13,0,0,"ATOMIC", 1, 2, 0);
	T = trans[3][13] = settr(564,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(564,2,8,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(564,2,11,0,0,"IF", 1, 2, 0);
	trans[3][8]	= settr(559,4,22,19,19,"((word==old))", 1, 2, 0); /* m: 9 -> 22,0 */
	reached3[9] = 1;
	trans[3][9]	= settr(0,0,0,0,0,"word = (old|4)",0,0,0);
	trans[3][10]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[3][14]	= settr(565,0,22,20,20,".(goto)", 1, 2, 0);
	trans[3][11]	= settr(562,2,12,2,0,"else", 1, 2, 0);
	trans[3][12]	= settr(563,4,22,21,21,"ok = 0", 1, 2, 0); /* m: 14 -> 0,22 */
	reached3[14] = 1;
	T = trans[3][22] = settr(573,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(573,0,16,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(573,0,20,0,0,"IF", 0, 2, 0);
	trans[3][16]	= settr(567,0,59,22,22,"(ok)", 0, 2, 0); /* m: 17 -> 59,0 */
	reached3[17] = 1;
	trans[3][17]	= settr(0,0,0,0,0,"seen = (old|4)",0,0,0);
	trans[3][18]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[3][19]	= settr(570,0,59,1,0,"goto :b17", 0, 2, 0);
	trans[3][23]	= settr(574,0,24,1,0,".(goto)", 0, 2, 0);
	trans[3][20]	= settr(571,0,21,2,0,"else", 0, 2, 0);
	trans[3][21]	= settr(572,0,24,23,23,"old = word", 1, 2, 0);
	trans[3][26]	= settr(577,0,59,1,0,"break", 0, 2, 0);
	T = trans[3][59] = settr(610,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(610,0,28,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(610,0,57,0,0,"IF", 0, 2, 0);
	trans[3][28]	= settr(579,0,29,24,24,"(r)", 0, 2, 0);
	trans[3][29]	= settr(580,0,56,25,25,"slot_cb = 4", 1, 2, 0);
	T = trans[ 3][56] = settr(607,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(607,0,30,0,0,"sub-sequence", 0, 2, 0);
	trans[3][30]	= settr(581,0,53,26,26,"old = word", 1, 2, 0);
	trans[3][54]	= settr(605,0,53,1,0,".(goto)", 0, 2, 0);
	T = trans[3][53] = settr(604,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(604,0,31,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(604,0,35,0,0,"DO", 0, 2, 0);
	trans[3][31]	= settr(582,0,120,27,27,"(((old&2)!=0))", 0, 2, 0); /* m: 32 -> 120,0 */
	reached3[32] = 1;
	trans[3][32]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[3][33]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[3][34]	= settr(585,0,120,1,0,"goto :b18", 0, 2, 0);
	trans[3][35]	= settr(586,0,44,2,0,"else", 0, 2, 0);
	T = trans[ 3][44] = settr(595,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(595,2,42,0,0,"ATOMIC", 1, 2, 0);
	T = trans[3][42] = settr(593,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(593,2,36,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(593,2,40,0,0,"IF", 1, 2, 0);
	trans[3][36]	= settr(587,4,51,28,28,"((word==old))", 1, 2, 0); /* m: 37 -> 51,0 */
	reached3[37] = 1;
	trans[3][37]	= settr(0,0,0,0,0,"word = (old|8)",0,0,0);
	trans[3][38]	= settr(0,0,0,0,0,"registered = (registered|(1<<4))",0,0,0);
	trans[3][39]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[3][43]	= settr(594,0,51,29,29,".(goto)", 1, 2, 0);
	trans[3][40]	= settr(591,2,41,2,0,"else", 1, 2, 0);
	trans[3][41]	= settr(592,4,51,30,30,"ok = 0", 1, 2, 0); /* m: 43 -> 0,51 */
	reached3[43] = 1;
	T = trans[3][51] = settr(602,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(602,0,45,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(602,0,49,0,0,"IF", 0, 2, 0);
	trans[3][45]	= settr(596,0,120,31,31,"(ok)", 0, 2, 0); /* m: 46 -> 120,0 */
	reached3[46] = 1;
	trans[3][46]	= settr(0,0,0,0,0,"seen = (old|8)",0,0,0);
	trans[3][47]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[3][48]	= settr(599,0,120,1,0,"goto :b18", 0, 2, 0);
	trans[3][52]	= settr(603,0,53,1,0,".(goto)", 0, 2, 0);
	trans[3][49]	= settr(600,0,50,2,0,"else", 0, 2, 0);
	trans[3][50]	= settr(601,0,53,32,32,"old = word", 1, 2, 0);
	trans[3][55]	= settr(606,0,120,1,0,"break", 0, 2, 0);
	trans[3][60]	= settr(611,0,120,1,0,".(goto)", 0, 2, 0);
	trans[3][57]	= settr(608,0,58,2,0,"else", 0, 2, 0);
	trans[3][58]	= settr(609,0,120,1,0,"(1)", 0, 2, 0);
	T = trans[3][120] = settr(671,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(671,0,61,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(671,0,63,0,0,"IF", 0, 2, 0);
	trans[3][61]	= settr(612,0,62,33,33,"(r)", 0, 2, 0);
	trans[3][62]	= settr(613,0,122,1,0,"(1)", 0, 2, 0);
	trans[3][121]	= settr(672,0,122,1,0,".(goto)", 0, 2, 0);
	trans[3][63]	= settr(614,0,118,2,0,"else", 0, 2, 0);
	T = trans[3][118] = settr(669,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(669,0,64,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(669,0,74,0,0,"IF", 0, 2, 0);
	trans[3][64]	= settr(615,0,73,34,34,"(((seen&3)==2))", 0, 2, 0);
	T = trans[ 3][73] = settr(624,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(624,0,72,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 3][72] = settr(623,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(623,2,65,0,0,"ATOMIC", 1, 2, 0);
	trans[3][65]	= settr(616,0,122,35,35,"assert(((word&2)!=0))", 1, 2, 0); /* m: 66 -> 0,122 */
	reached3[66] = 1;
	trans[3][66]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[3][67]	= settr(0,0,0,0,0,"assert((ran[4]==0))",0,0,0);
	trans[3][68]	= settr(0,0,0,0,0,"assert(((ran_mask&before[4])==before[4]))",0,0,0);
	trans[3][69]	= settr(0,0,0,0,0,"assert((!(1)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[3][70]	= settr(0,0,0,0,0,"ran[4] = (ran[4]+1)",0,0,0);
	trans[3][71]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<4))",0,0,0);
	trans[3][119]	= settr(670,0,122,1,0,".(goto)", 0, 2, 0);
	trans[3][74]	= settr(625,0,117,2,0,"else", 0, 2, 0);
	T = trans[ 3][117] = settr(668,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(668,0,102,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 3][102] = settr(653,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(653,0,75,0,0,"sub-sequence", 0, 2, 0);
	trans[3][75]	= settr(626,0,99,36,36,"old = word", 1, 2, 0);
	trans[3][100]	= settr(651,0,99,1,0,".(goto)", 0, 2, 0);
	T = trans[3][99] = settr(650,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(650,0,76,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(650,0,80,0,0,"DO", 0, 2, 0);
	trans[3][76]	= settr(627,0,115,37,37,"(((old&3)==2))", 0, 2, 0); /* m: 77 -> 115,0 */
	reached3[77] = 1;
	trans[3][77]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[3][78]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[3][79]	= settr(630,0,115,1,0,"goto :b19", 0, 2, 0);
	trans[3][80]	= settr(631,0,81,2,0,"else", 0, 2, 0);
	trans[3][81]	= settr(632,0,90,38,38,"next[4] = (old>>4)", 1, 2, 0);
	T = trans[ 3][90] = settr(641,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(641,2,88,0,0,"ATOMIC", 1, 2, 0);
	T = trans[3][88] = settr(639,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(639,2,82,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(639,2,86,0,0,"IF", 1, 2, 0);
	trans[3][82]	= settr(633,4,97,39,39,"((word==old))", 1, 2, 0); /* m: 83 -> 97,0 */
	reached3[83] = 1;
	trans[3][83]	= settr(0,0,0,0,0,"word = ((4<<4)|(old&15))",0,0,0);
	trans[3][84]	= settr(0,0,0,0,0,"registered = (registered|(1<<4))",0,0,0);
	trans[3][85]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[3][89]	= settr(640,0,97,40,40,".(goto)", 1, 2, 0);
	trans[3][86]	= settr(637,2,87,2,0,"else", 1, 2, 0);
	trans[3][87]	= settr(638,4,97,41,41,"ok = 0", 1, 2, 0); /* m: 89 -> 0,97 */
	reached3[89] = 1;
	T = trans[3][97] = settr(648,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(648,0,91,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(648,0,95,0,0,"IF", 0, 2, 0);
	trans[3][91]	= settr(642,0,115,42,42,"(ok)", 0, 2, 0); /* m: 92 -> 115,0 */
	reached3[92] = 1;
	trans[3][92]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[3][93]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[3][94]	= settr(645,0,115,1,0,"goto :b19", 0, 2, 0);
	trans[3][98]	= settr(649,0,99,1,0,".(goto)", 0, 2, 0);
	trans[3][95]	= settr(646,0,96,2,0,"else", 0, 2, 0);
	trans[3][96]	= settr(647,0,99,43,43,"old = word", 1, 2, 0);
	trans[3][101]	= settr(652,0,115,1,0,"break", 0, 2, 0);
	T = trans[3][115] = settr(666,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(666,0,103,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(666,0,113,0,0,"IF", 0, 2, 0);
	trans[3][103]	= settr(654,0,112,44,44,"((r==0))", 0, 2, 0);
	T = trans[ 3][112] = settr(663,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(663,0,111,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 3][111] = settr(662,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(662,2,104,0,0,"ATOMIC", 1, 2, 0);
	trans[3][104]	= settr(655,0,122,45,45,"assert(((word&2)!=0))", 1, 2, 0); /* m: 105 -> 0,122 */
	reached3[105] = 1;
	trans[3][105]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[3][106]	= settr(0,0,0,0,0,"assert((ran[4]==0))",0,0,0);
	trans[3][107]	= settr(0,0,0,0,0,"assert(((ran_mask&before[4])==before[4]))",0,0,0);
	trans[3][108]	= settr(0,0,0,0,0,"assert((!(1)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[3][109]	= settr(0,0,0,0,0,"ran[4] = (ran[4]+1)",0,0,0);
	trans[3][110]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<4))",0,0,0);
	trans[3][116]	= settr(667,0,122,1,0,".(goto)", 0, 2, 0);
	trans[3][113]	= settr(664,0,114,2,0,"else", 0, 2, 0);
	trans[3][114]	= settr(665,0,122,1,0,"(1)", 0, 2, 0);
	trans[3][122]	= settr(673,0,124,46,46,"done_mask = (done_mask|(1<<4))", 1, 2, 0);
	trans[3][124]	= settr(675,0,0,47,47,"-end-", 0, 3500, 0);

	/* proctype 2: S2 */

	trans[2] = (Trans **) emalloc(125*sizeof(Trans *));

	T = trans[ 2][123] = settr(550,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(550,0,1,0,0,"sub-sequence", 0, 2, 0);
	trans[2][1]	= settr(428,0,27,48,48,"before[3] = done_mask", 1, 2, 0);
	T = trans[ 2][27] = settr(454,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(454,0,2,0,0,"sub-sequence", 0, 2, 0);
	trans[2][2]	= settr(429,0,24,49,49,"old = word", 1, 2, 0);
	trans[2][25]	= settr(452,0,24,1,0,".(goto)", 0, 2, 0);
	T = trans[2][24] = settr(451,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(451,0,3,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(451,0,7,0,0,"DO", 0, 2, 0);
	trans[2][3]	= settr(430,0,59,50,50,"(!((!(((old&2)!=0))&&((old&(4|8))==0))))", 0, 2, 0); /* m: 4 -> 59,0 */
	reached2[4] = 1;
	trans[2][4]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[2][5]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[2][6]	= settr(433,0,59,1,0,"goto :b14", 0, 2, 0);
	trans[2][7]	= settr(434,0,15,2,0,"else", 0, 2, 0);
	T = trans[ 2][15] = settr(442,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(442,2,13,0,0,"ATOMIC", 1, 2, 0);
	T = trans[2][13] = settr(440,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(440,2,8,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(440,2,11,0,0,"IF", 1, 2, 0);
	trans[2][8]	= settr(435,4,22,51,51,"((word==old))", 1, 2, 0); /* m: 9 -> 22,0 */
	reached2[9] = 1;
	trans[2][9]	= settr(0,0,0,0,0,"word = (old|4)",0,0,0);
	trans[2][10]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[2][14]	= settr(441,0,22,52,52,".(goto)", 1, 2, 0);
	trans[2][11]	= settr(438,2,12,2,0,"else", 1, 2, 0);
	trans[2][12]	= settr(439,4,22,53,53,"ok = 0", 1, 2, 0); /* m: 14 -> 0,22 */
	reached2[14] = 1;
	T = trans[2][22] = settr(449,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(449,0,16,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(449,0,20,0,0,"IF", 0, 2, 0);
	trans[2][16]	= settr(443,0,59,54,54,"(ok)", 0, 2, 0); /* m: 17 -> 59,0 */
	reached2[17] = 1;
	trans[2][17]	= settr(0,0,0,0,0,"seen = (old|4)",0,0,0);
	trans[2][18]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[2][19]	= settr(446,0,59,1,0,"goto :b14", 0, 2, 0);
	trans[2][23]	= settr(450,0,24,1,0,".(goto)", 0, 2, 0);
	trans[2][20]	= settr(447,0,21,2,0,"else", 0, 2, 0);
	trans[2][21]	= settr(448,0,24,55,55,"old = word", 1, 2, 0);
	trans[2][26]	= settr(453,0,59,1,0,"break", 0, 2, 0);
	T = trans[2][59] = settr(486,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(486,0,28,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(486,0,57,0,0,"IF", 0, 2, 0);
	trans[2][28]	= settr(455,0,29,56,56,"(r)", 0, 2, 0);
	trans[2][29]	= settr(456,0,56,57,57,"slot_cb = 3", 1, 2, 0);
	T = trans[ 2][56] = settr(483,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(483,0,30,0,0,"sub-sequence", 0, 2, 0);
	trans[2][30]	= settr(457,0,53,58,58,"old = word", 1, 2, 0);
	trans[2][54]	= settr(481,0,53,1,0,".(goto)", 0, 2, 0);
	T = trans[2][53] = settr(480,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(480,0,31,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(480,0,35,0,0,"DO", 0, 2, 0);
	trans[2][31]	= settr(458,0,120,59,59,"(((old&2)!=0))", 0, 2, 0); /* m: 32 -> 120,0 */
	reached2[32] = 1;
	trans[2][32]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[2][33]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[2][34]	= settr(461,0,120,1,0,"goto :b15", 0, 2, 0);
	trans[2][35]	= settr(462,0,44,2,0,"else", 0, 2, 0);
	T = trans[ 2][44] = settr(471,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(471,2,42,0,0,"ATOMIC", 1, 2, 0);
	T = trans[2][42] = settr(469,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(469,2,36,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(469,2,40,0,0,"IF", 1, 2, 0);
	trans[2][36]	= settr(463,4,51,60,60,"((word==old))", 1, 2, 0); /* m: 37 -> 51,0 */
	reached2[37] = 1;
	trans[2][37]	= settr(0,0,0,0,0,"word = (old|8)",0,0,0);
	trans[2][38]	= settr(0,0,0,0,0,"registered = (registered|(1<<3))",0,0,0);
	trans[2][39]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[2][43]	= settr(470,0,51,61,61,".(goto)", 1, 2, 0);
	trans[2][40]	= settr(467,2,41,2,0,"else", 1, 2, 0);
	trans[2][41]	= settr(468,4,51,62,62,"ok = 0", 1, 2, 0); /* m: 43 -> 0,51 */
	reached2[43] = 1;
	T = trans[2][51] = settr(478,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(478,0,45,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(478,0,49,0,0,"IF", 0, 2, 0);
	trans[2][45]	= settr(472,0,120,63,63,"(ok)", 0, 2, 0); /* m: 46 -> 120,0 */
	reached2[46] = 1;
	trans[2][46]	= settr(0,0,0,0,0,"seen = (old|8)",0,0,0);
	trans[2][47]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[2][48]	= settr(475,0,120,1,0,"goto :b15", 0, 2, 0);
	trans[2][52]	= settr(479,0,53,1,0,".(goto)", 0, 2, 0);
	trans[2][49]	= settr(476,0,50,2,0,"else", 0, 2, 0);
	trans[2][50]	= settr(477,0,53,64,64,"old = word", 1, 2, 0);
	trans[2][55]	= settr(482,0,120,1,0,"break", 0, 2, 0);
	trans[2][60]	= settr(487,0,120,1,0,".(goto)", 0, 2, 0);
	trans[2][57]	= settr(484,0,58,2,0,"else", 0, 2, 0);
	trans[2][58]	= settr(485,0,120,1,0,"(1)", 0, 2, 0);
	T = trans[2][120] = settr(547,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(547,0,61,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(547,0,63,0,0,"IF", 0, 2, 0);
	trans[2][61]	= settr(488,0,62,65,65,"(r)", 0, 2, 0);
	trans[2][62]	= settr(489,0,122,1,0,"(1)", 0, 2, 0);
	trans[2][121]	= settr(548,0,122,1,0,".(goto)", 0, 2, 0);
	trans[2][63]	= settr(490,0,118,2,0,"else", 0, 2, 0);
	T = trans[2][118] = settr(545,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(545,0,64,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(545,0,74,0,0,"IF", 0, 2, 0);
	trans[2][64]	= settr(491,0,73,66,66,"(((seen&3)==2))", 0, 2, 0);
	T = trans[ 2][73] = settr(500,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(500,0,72,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 2][72] = settr(499,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(499,2,65,0,0,"ATOMIC", 1, 2, 0);
	trans[2][65]	= settr(492,0,122,67,67,"assert(((word&2)!=0))", 1, 2, 0); /* m: 66 -> 0,122 */
	reached2[66] = 1;
	trans[2][66]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[2][67]	= settr(0,0,0,0,0,"assert((ran[3]==0))",0,0,0);
	trans[2][68]	= settr(0,0,0,0,0,"assert(((ran_mask&before[3])==before[3]))",0,0,0);
	trans[2][69]	= settr(0,0,0,0,0,"assert((!(1)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[2][70]	= settr(0,0,0,0,0,"ran[3] = (ran[3]+1)",0,0,0);
	trans[2][71]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<3))",0,0,0);
	trans[2][119]	= settr(546,0,122,1,0,".(goto)", 0, 2, 0);
	trans[2][74]	= settr(501,0,117,2,0,"else", 0, 2, 0);
	T = trans[ 2][117] = settr(544,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(544,0,102,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 2][102] = settr(529,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(529,0,75,0,0,"sub-sequence", 0, 2, 0);
	trans[2][75]	= settr(502,0,99,68,68,"old = word", 1, 2, 0);
	trans[2][100]	= settr(527,0,99,1,0,".(goto)", 0, 2, 0);
	T = trans[2][99] = settr(526,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(526,0,76,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(526,0,80,0,0,"DO", 0, 2, 0);
	trans[2][76]	= settr(503,0,115,69,69,"(((old&3)==2))", 0, 2, 0); /* m: 77 -> 115,0 */
	reached2[77] = 1;
	trans[2][77]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[2][78]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[2][79]	= settr(506,0,115,1,0,"goto :b16", 0, 2, 0);
	trans[2][80]	= settr(507,0,81,2,0,"else", 0, 2, 0);
	trans[2][81]	= settr(508,0,90,70,70,"next[3] = (old>>4)", 1, 2, 0);
	T = trans[ 2][90] = settr(517,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(517,2,88,0,0,"ATOMIC", 1, 2, 0);
	T = trans[2][88] = settr(515,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(515,2,82,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(515,2,86,0,0,"IF", 1, 2, 0);
	trans[2][82]	= settr(509,4,97,71,71,"((word==old))", 1, 2, 0); /* m: 83 -> 97,0 */
	reached2[83] = 1;
	trans[2][83]	= settr(0,0,0,0,0,"word = ((3<<4)|(old&15))",0,0,0);
	trans[2][84]	= settr(0,0,0,0,0,"registered = (registered|(1<<3))",0,0,0);
	trans[2][85]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[2][89]	= settr(516,0,97,72,72,".(goto)", 1, 2, 0);
	trans[2][86]	= settr(513,2,87,2,0,"else", 1, 2, 0);
	trans[2][87]	= settr(514,4,97,73,73,"ok = 0", 1, 2, 0); /* m: 89 -> 0,97 */
	reached2[89] = 1;
	T = trans[2][97] = settr(524,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(524,0,91,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(524,0,95,0,0,"IF", 0, 2, 0);
	trans[2][91]	= settr(518,0,115,74,74,"(ok)", 0, 2, 0); /* m: 92 -> 115,0 */
	reached2[92] = 1;
	trans[2][92]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[2][93]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[2][94]	= settr(521,0,115,1,0,"goto :b16", 0, 2, 0);
	trans[2][98]	= settr(525,0,99,1,0,".(goto)", 0, 2, 0);
	trans[2][95]	= settr(522,0,96,2,0,"else", 0, 2, 0);
	trans[2][96]	= settr(523,0,99,75,75,"old = word", 1, 2, 0);
	trans[2][101]	= settr(528,0,115,1,0,"break", 0, 2, 0);
	T = trans[2][115] = settr(542,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(542,0,103,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(542,0,113,0,0,"IF", 0, 2, 0);
	trans[2][103]	= settr(530,0,112,76,76,"((r==0))", 0, 2, 0);
	T = trans[ 2][112] = settr(539,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(539,0,111,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 2][111] = settr(538,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(538,2,104,0,0,"ATOMIC", 1, 2, 0);
	trans[2][104]	= settr(531,0,122,77,77,"assert(((word&2)!=0))", 1, 2, 0); /* m: 105 -> 0,122 */
	reached2[105] = 1;
	trans[2][105]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[2][106]	= settr(0,0,0,0,0,"assert((ran[3]==0))",0,0,0);
	trans[2][107]	= settr(0,0,0,0,0,"assert(((ran_mask&before[3])==before[3]))",0,0,0);
	trans[2][108]	= settr(0,0,0,0,0,"assert((!(1)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[2][109]	= settr(0,0,0,0,0,"ran[3] = (ran[3]+1)",0,0,0);
	trans[2][110]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<3))",0,0,0);
	trans[2][116]	= settr(543,0,122,1,0,".(goto)", 0, 2, 0);
	trans[2][113]	= settr(540,0,114,2,0,"else", 0, 2, 0);
	trans[2][114]	= settr(541,0,122,1,0,"(1)", 0, 2, 0);
	trans[2][122]	= settr(549,0,124,78,78,"done_mask = (done_mask|(1<<3))", 1, 2, 0);
	trans[2][124]	= settr(551,0,0,79,79,"-end-", 0, 3500, 0);

	/* proctype 1: S1 */

	trans[1] = (Trans **) emalloc(248*sizeof(Trans *));

	T = trans[ 1][123] = settr(303,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(303,0,1,0,0,"sub-sequence", 0, 2, 0);
	trans[1][1]	= settr(181,0,27,80,80,"before[1] = done_mask", 1, 2, 0);
	T = trans[ 1][27] = settr(207,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(207,0,2,0,0,"sub-sequence", 0, 2, 0);
	trans[1][2]	= settr(182,0,24,81,81,"old = word", 1, 2, 0);
	trans[1][25]	= settr(205,0,24,1,0,".(goto)", 0, 2, 0);
	T = trans[1][24] = settr(204,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(204,0,3,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(204,0,7,0,0,"DO", 0, 2, 0);
	trans[1][3]	= settr(183,0,59,82,82,"(!((!(((old&2)!=0))&&((old&(4|8))==0))))", 0, 2, 0); /* m: 4 -> 59,0 */
	reached1[4] = 1;
	trans[1][4]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[1][5]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[1][6]	= settr(186,0,59,1,0,"goto :b8", 0, 2, 0);
	trans[1][7]	= settr(187,0,15,2,0,"else", 0, 2, 0);
	T = trans[ 1][15] = settr(195,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(195,2,13,0,0,"ATOMIC", 1, 2, 0);
	T = trans[1][13] = settr(193,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(193,2,8,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(193,2,11,0,0,"IF", 1, 2, 0);
	trans[1][8]	= settr(188,4,22,83,83,"((word==old))", 1, 2, 0); /* m: 9 -> 22,0 */
	reached1[9] = 1;
	trans[1][9]	= settr(0,0,0,0,0,"word = (old|4)",0,0,0);
	trans[1][10]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[1][14]	= settr(194,0,22,84,84,".(goto)", 1, 2, 0);
	trans[1][11]	= settr(191,2,12,2,0,"else", 1, 2, 0);
	trans[1][12]	= settr(192,4,22,85,85,"ok = 0", 1, 2, 0); /* m: 14 -> 0,22 */
	reached1[14] = 1;
	T = trans[1][22] = settr(202,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(202,0,16,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(202,0,20,0,0,"IF", 0, 2, 0);
	trans[1][16]	= settr(196,0,59,86,86,"(ok)", 0, 2, 0); /* m: 17 -> 59,0 */
	reached1[17] = 1;
	trans[1][17]	= settr(0,0,0,0,0,"seen = (old|4)",0,0,0);
	trans[1][18]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[1][19]	= settr(199,0,59,1,0,"goto :b8", 0, 2, 0);
	trans[1][23]	= settr(203,0,24,1,0,".(goto)", 0, 2, 0);
	trans[1][20]	= settr(200,0,21,2,0,"else", 0, 2, 0);
	trans[1][21]	= settr(201,0,24,87,87,"old = word", 1, 2, 0);
	trans[1][26]	= settr(206,0,59,1,0,"break", 0, 2, 0);
	T = trans[1][59] = settr(239,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(239,0,28,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(239,0,57,0,0,"IF", 0, 2, 0);
	trans[1][28]	= settr(208,0,29,88,88,"(r)", 0, 2, 0);
	trans[1][29]	= settr(209,0,56,89,89,"slot_cb = 1", 1, 2, 0);
	T = trans[ 1][56] = settr(236,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(236,0,30,0,0,"sub-sequence", 0, 2, 0);
	trans[1][30]	= settr(210,0,53,90,90,"old = word", 1, 2, 0);
	trans[1][54]	= settr(234,0,53,1,0,".(goto)", 0, 2, 0);
	T = trans[1][53] = settr(233,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(233,0,31,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(233,0,35,0,0,"DO", 0, 2, 0);
	trans[1][31]	= settr(211,0,120,91,91,"(((old&2)!=0))", 0, 2, 0); /* m: 32 -> 120,0 */
	reached1[32] = 1;
	trans[1][32]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[1][33]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[1][34]	= settr(214,0,120,1,0,"goto :b9", 0, 2, 0);
	trans[1][35]	= settr(215,0,44,2,0,"else", 0, 2, 0);
	T = trans[ 1][44] = settr(224,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(224,2,42,0,0,"ATOMIC", 1, 2, 0);
	T = trans[1][42] = settr(222,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(222,2,36,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(222,2,40,0,0,"IF", 1, 2, 0);
	trans[1][36]	= settr(216,4,51,92,92,"((word==old))", 1, 2, 0); /* m: 37 -> 51,0 */
	reached1[37] = 1;
	trans[1][37]	= settr(0,0,0,0,0,"word = (old|8)",0,0,0);
	trans[1][38]	= settr(0,0,0,0,0,"registered = (registered|(1<<1))",0,0,0);
	trans[1][39]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[1][43]	= settr(223,0,51,93,93,".(goto)", 1, 2, 0);
	trans[1][40]	= settr(220,2,41,2,0,"else", 1, 2, 0);
	trans[1][41]	= settr(221,4,51,94,94,"ok = 0", 1, 2, 0); /* m: 43 -> 0,51 */
	reached1[43] = 1;
	T = trans[1][51] = settr(231,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(231,0,45,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(231,0,49,0,0,"IF", 0, 2, 0);
	trans[1][45]	= settr(225,0,120,95,95,"(ok)", 0, 2, 0); /* m: 46 -> 120,0 */
	reached1[46] = 1;
	trans[1][46]	= settr(0,0,0,0,0,"seen = (old|8)",0,0,0);
	trans[1][47]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[1][48]	= settr(228,0,120,1,0,"goto :b9", 0, 2, 0);
	trans[1][52]	= settr(232,0,53,1,0,".(goto)", 0, 2, 0);
	trans[1][49]	= settr(229,0,50,2,0,"else", 0, 2, 0);
	trans[1][50]	= settr(230,0,53,96,96,"old = word", 1, 2, 0);
	trans[1][55]	= settr(235,0,120,1,0,"break", 0, 2, 0);
	trans[1][60]	= settr(240,0,120,1,0,".(goto)", 0, 2, 0);
	trans[1][57]	= settr(237,0,58,2,0,"else", 0, 2, 0);
	trans[1][58]	= settr(238,0,120,1,0,"(1)", 0, 2, 0);
	T = trans[1][120] = settr(300,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(300,0,61,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(300,0,63,0,0,"IF", 0, 2, 0);
	trans[1][61]	= settr(241,0,62,97,97,"(r)", 0, 2, 0);
	trans[1][62]	= settr(242,0,122,1,0,"(1)", 0, 2, 0);
	trans[1][121]	= settr(301,0,122,1,0,".(goto)", 0, 2, 0);
	trans[1][63]	= settr(243,0,118,2,0,"else", 0, 2, 0);
	T = trans[1][118] = settr(298,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(298,0,64,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(298,0,74,0,0,"IF", 0, 2, 0);
	trans[1][64]	= settr(244,0,73,98,98,"(((seen&3)==2))", 0, 2, 0);
	T = trans[ 1][73] = settr(253,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(253,0,72,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 1][72] = settr(252,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(252,2,65,0,0,"ATOMIC", 1, 2, 0);
	trans[1][65]	= settr(245,0,122,99,99,"assert(((word&2)!=0))", 1, 2, 0); /* m: 66 -> 0,122 */
	reached1[66] = 1;
	trans[1][66]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[1][67]	= settr(0,0,0,0,0,"assert((ran[1]==0))",0,0,0);
	trans[1][68]	= settr(0,0,0,0,0,"assert(((ran_mask&before[1])==before[1]))",0,0,0);
	trans[1][69]	= settr(0,0,0,0,0,"assert((!(1)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[1][70]	= settr(0,0,0,0,0,"ran[1] = (ran[1]+1)",0,0,0);
	trans[1][71]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<1))",0,0,0);
	trans[1][119]	= settr(299,0,122,1,0,".(goto)", 0, 2, 0);
	trans[1][74]	= settr(254,0,117,2,0,"else", 0, 2, 0);
	T = trans[ 1][117] = settr(297,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(297,0,102,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 1][102] = settr(282,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(282,0,75,0,0,"sub-sequence", 0, 2, 0);
	trans[1][75]	= settr(255,0,99,100,100,"old = word", 1, 2, 0);
	trans[1][100]	= settr(280,0,99,1,0,".(goto)", 0, 2, 0);
	T = trans[1][99] = settr(279,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(279,0,76,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(279,0,80,0,0,"DO", 0, 2, 0);
	trans[1][76]	= settr(256,0,115,101,101,"(((old&3)==2))", 0, 2, 0); /* m: 77 -> 115,0 */
	reached1[77] = 1;
	trans[1][77]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[1][78]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[1][79]	= settr(259,0,115,1,0,"goto :b10", 0, 2, 0);
	trans[1][80]	= settr(260,0,81,2,0,"else", 0, 2, 0);
	trans[1][81]	= settr(261,0,90,102,102,"next[1] = (old>>4)", 1, 2, 0);
	T = trans[ 1][90] = settr(270,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(270,2,88,0,0,"ATOMIC", 1, 2, 0);
	T = trans[1][88] = settr(268,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(268,2,82,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(268,2,86,0,0,"IF", 1, 2, 0);
	trans[1][82]	= settr(262,4,97,103,103,"((word==old))", 1, 2, 0); /* m: 83 -> 97,0 */
	reached1[83] = 1;
	trans[1][83]	= settr(0,0,0,0,0,"word = ((1<<4)|(old&15))",0,0,0);
	trans[1][84]	= settr(0,0,0,0,0,"registered = (registered|(1<<1))",0,0,0);
	trans[1][85]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[1][89]	= settr(269,0,97,104,104,".(goto)", 1, 2, 0);
	trans[1][86]	= settr(266,2,87,2,0,"else", 1, 2, 0);
	trans[1][87]	= settr(267,4,97,105,105,"ok = 0", 1, 2, 0); /* m: 89 -> 0,97 */
	reached1[89] = 1;
	T = trans[1][97] = settr(277,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(277,0,91,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(277,0,95,0,0,"IF", 0, 2, 0);
	trans[1][91]	= settr(271,0,115,106,106,"(ok)", 0, 2, 0); /* m: 92 -> 115,0 */
	reached1[92] = 1;
	trans[1][92]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[1][93]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[1][94]	= settr(274,0,115,1,0,"goto :b10", 0, 2, 0);
	trans[1][98]	= settr(278,0,99,1,0,".(goto)", 0, 2, 0);
	trans[1][95]	= settr(275,0,96,2,0,"else", 0, 2, 0);
	trans[1][96]	= settr(276,0,99,107,107,"old = word", 1, 2, 0);
	trans[1][101]	= settr(281,0,115,1,0,"break", 0, 2, 0);
	T = trans[1][115] = settr(295,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(295,0,103,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(295,0,113,0,0,"IF", 0, 2, 0);
	trans[1][103]	= settr(283,0,112,108,108,"((r==0))", 0, 2, 0);
	T = trans[ 1][112] = settr(292,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(292,0,111,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 1][111] = settr(291,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(291,2,104,0,0,"ATOMIC", 1, 2, 0);
	trans[1][104]	= settr(284,0,122,109,109,"assert(((word&2)!=0))", 1, 2, 0); /* m: 105 -> 0,122 */
	reached1[105] = 1;
	trans[1][105]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[1][106]	= settr(0,0,0,0,0,"assert((ran[1]==0))",0,0,0);
	trans[1][107]	= settr(0,0,0,0,0,"assert(((ran_mask&before[1])==before[1]))",0,0,0);
	trans[1][108]	= settr(0,0,0,0,0,"assert((!(1)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[1][109]	= settr(0,0,0,0,0,"ran[1] = (ran[1]+1)",0,0,0);
	trans[1][110]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<1))",0,0,0);
	trans[1][116]	= settr(296,0,122,1,0,".(goto)", 0, 2, 0);
	trans[1][113]	= settr(293,0,114,2,0,"else", 0, 2, 0);
	trans[1][114]	= settr(294,0,122,1,0,"(1)", 0, 2, 0);
	trans[1][122]	= settr(302,0,246,110,110,"done_mask = (done_mask|(1<<1))", 1, 2, 0);
	T = trans[ 1][246] = settr(426,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(426,0,124,0,0,"sub-sequence", 0, 2, 0);
	trans[1][124]	= settr(304,0,150,111,111,"before[2] = done_mask", 1, 2, 0);
	T = trans[ 1][150] = settr(330,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(330,0,125,0,0,"sub-sequence", 0, 2, 0);
	trans[1][125]	= settr(305,0,147,112,112,"old = word", 1, 2, 0);
	trans[1][148]	= settr(328,0,147,1,0,".(goto)", 0, 2, 0);
	T = trans[1][147] = settr(327,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(327,0,126,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(327,0,130,0,0,"DO", 0, 2, 0);
	trans[1][126]	= settr(306,0,182,113,113,"(!((!(((old&2)!=0))&&((old&(4|8))==0))))", 0, 2, 0); /* m: 127 -> 182,0 */
	reached1[127] = 1;
	trans[1][127]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[1][128]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[1][129]	= settr(309,0,182,1,0,"goto :b11", 0, 2, 0);
	trans[1][130]	= settr(310,0,138,2,0,"else", 0, 2, 0);
	T = trans[ 1][138] = settr(318,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(318,2,136,0,0,"ATOMIC", 1, 2, 0);
	T = trans[1][136] = settr(316,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(316,2,131,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(316,2,134,0,0,"IF", 1, 2, 0);
	trans[1][131]	= settr(311,4,145,114,114,"((word==old))", 1, 2, 0); /* m: 132 -> 145,0 */
	reached1[132] = 1;
	trans[1][132]	= settr(0,0,0,0,0,"word = (old|4)",0,0,0);
	trans[1][133]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[1][137]	= settr(317,0,145,115,115,".(goto)", 1, 2, 0);
	trans[1][134]	= settr(314,2,135,2,0,"else", 1, 2, 0);
	trans[1][135]	= settr(315,4,145,116,116,"ok = 0", 1, 2, 0); /* m: 137 -> 0,145 */
	reached1[137] = 1;
	T = trans[1][145] = settr(325,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(325,0,139,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(325,0,143,0,0,"IF", 0, 2, 0);
	trans[1][139]	= settr(319,0,182,117,117,"(ok)", 0, 2, 0); /* m: 140 -> 182,0 */
	reached1[140] = 1;
	trans[1][140]	= settr(0,0,0,0,0,"seen = (old|4)",0,0,0);
	trans[1][141]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[1][142]	= settr(322,0,182,1,0,"goto :b11", 0, 2, 0);
	trans[1][146]	= settr(326,0,147,1,0,".(goto)", 0, 2, 0);
	trans[1][143]	= settr(323,0,144,2,0,"else", 0, 2, 0);
	trans[1][144]	= settr(324,0,147,118,118,"old = word", 1, 2, 0);
	trans[1][149]	= settr(329,0,182,1,0,"break", 0, 2, 0);
	T = trans[1][182] = settr(362,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(362,0,151,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(362,0,180,0,0,"IF", 0, 2, 0);
	trans[1][151]	= settr(331,0,152,119,119,"(r)", 0, 2, 0);
	trans[1][152]	= settr(332,0,179,120,120,"slot_cb = 2", 1, 2, 0);
	T = trans[ 1][179] = settr(359,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(359,0,153,0,0,"sub-sequence", 0, 2, 0);
	trans[1][153]	= settr(333,0,176,121,121,"old = word", 1, 2, 0);
	trans[1][177]	= settr(357,0,176,1,0,".(goto)", 0, 2, 0);
	T = trans[1][176] = settr(356,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(356,0,154,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(356,0,158,0,0,"DO", 0, 2, 0);
	trans[1][154]	= settr(334,0,243,122,122,"(((old&2)!=0))", 0, 2, 0); /* m: 155 -> 243,0 */
	reached1[155] = 1;
	trans[1][155]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[1][156]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[1][157]	= settr(337,0,243,1,0,"goto :b12", 0, 2, 0);
	trans[1][158]	= settr(338,0,167,2,0,"else", 0, 2, 0);
	T = trans[ 1][167] = settr(347,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(347,2,165,0,0,"ATOMIC", 1, 2, 0);
	T = trans[1][165] = settr(345,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(345,2,159,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(345,2,163,0,0,"IF", 1, 2, 0);
	trans[1][159]	= settr(339,4,174,123,123,"((word==old))", 1, 2, 0); /* m: 160 -> 174,0 */
	reached1[160] = 1;
	trans[1][160]	= settr(0,0,0,0,0,"word = (old|8)",0,0,0);
	trans[1][161]	= settr(0,0,0,0,0,"registered = (registered|(1<<2))",0,0,0);
	trans[1][162]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[1][166]	= settr(346,0,174,124,124,".(goto)", 1, 2, 0);
	trans[1][163]	= settr(343,2,164,2,0,"else", 1, 2, 0);
	trans[1][164]	= settr(344,4,174,125,125,"ok = 0", 1, 2, 0); /* m: 166 -> 0,174 */
	reached1[166] = 1;
	T = trans[1][174] = settr(354,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(354,0,168,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(354,0,172,0,0,"IF", 0, 2, 0);
	trans[1][168]	= settr(348,0,243,126,126,"(ok)", 0, 2, 0); /* m: 169 -> 243,0 */
	reached1[169] = 1;
	trans[1][169]	= settr(0,0,0,0,0,"seen = (old|8)",0,0,0);
	trans[1][170]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[1][171]	= settr(351,0,243,1,0,"goto :b12", 0, 2, 0);
	trans[1][175]	= settr(355,0,176,1,0,".(goto)", 0, 2, 0);
	trans[1][172]	= settr(352,0,173,2,0,"else", 0, 2, 0);
	trans[1][173]	= settr(353,0,176,127,127,"old = word", 1, 2, 0);
	trans[1][178]	= settr(358,0,243,1,0,"break", 0, 2, 0);
	trans[1][183]	= settr(363,0,243,1,0,".(goto)", 0, 2, 0);
	trans[1][180]	= settr(360,0,181,2,0,"else", 0, 2, 0);
	trans[1][181]	= settr(361,0,243,1,0,"(1)", 0, 2, 0);
	T = trans[1][243] = settr(423,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(423,0,184,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(423,0,186,0,0,"IF", 0, 2, 0);
	trans[1][184]	= settr(364,0,185,128,128,"(r)", 0, 2, 0);
	trans[1][185]	= settr(365,0,245,1,0,"(1)", 0, 2, 0);
	trans[1][244]	= settr(424,0,245,1,0,".(goto)", 0, 2, 0);
	trans[1][186]	= settr(366,0,241,2,0,"else", 0, 2, 0);
	T = trans[1][241] = settr(421,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(421,0,187,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(421,0,197,0,0,"IF", 0, 2, 0);
	trans[1][187]	= settr(367,0,196,129,129,"(((seen&3)==2))", 0, 2, 0);
	T = trans[ 1][196] = settr(376,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(376,0,195,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 1][195] = settr(375,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(375,2,188,0,0,"ATOMIC", 1, 2, 0);
	trans[1][188]	= settr(368,0,245,130,130,"assert(((word&2)!=0))", 1, 2, 0); /* m: 189 -> 0,245 */
	reached1[189] = 1;
	trans[1][189]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[1][190]	= settr(0,0,0,0,0,"assert((ran[2]==0))",0,0,0);
	trans[1][191]	= settr(0,0,0,0,0,"assert(((ran_mask&before[2])==before[2]))",0,0,0);
	trans[1][192]	= settr(0,0,0,0,0,"assert((!(1)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[1][193]	= settr(0,0,0,0,0,"ran[2] = (ran[2]+1)",0,0,0);
	trans[1][194]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<2))",0,0,0);
	trans[1][242]	= settr(422,0,245,1,0,".(goto)", 0, 2, 0);
	trans[1][197]	= settr(377,0,240,2,0,"else", 0, 2, 0);
	T = trans[ 1][240] = settr(420,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(420,0,225,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 1][225] = settr(405,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(405,0,198,0,0,"sub-sequence", 0, 2, 0);
	trans[1][198]	= settr(378,0,222,131,131,"old = word", 1, 2, 0);
	trans[1][223]	= settr(403,0,222,1,0,".(goto)", 0, 2, 0);
	T = trans[1][222] = settr(402,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(402,0,199,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(402,0,203,0,0,"DO", 0, 2, 0);
	trans[1][199]	= settr(379,0,238,132,132,"(((old&3)==2))", 0, 2, 0); /* m: 200 -> 238,0 */
	reached1[200] = 1;
	trans[1][200]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[1][201]	= settr(0,0,0,0,0,"r = 0",0,0,0);
	trans[1][202]	= settr(382,0,238,1,0,"goto :b13", 0, 2, 0);
	trans[1][203]	= settr(383,0,204,2,0,"else", 0, 2, 0);
	trans[1][204]	= settr(384,0,213,133,133,"next[2] = (old>>4)", 1, 2, 0);
	T = trans[ 1][213] = settr(393,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(393,2,211,0,0,"ATOMIC", 1, 2, 0);
	T = trans[1][211] = settr(391,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(391,2,205,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(391,2,209,0,0,"IF", 1, 2, 0);
	trans[1][205]	= settr(385,4,220,134,134,"((word==old))", 1, 2, 0); /* m: 206 -> 220,0 */
	reached1[206] = 1;
	trans[1][206]	= settr(0,0,0,0,0,"word = ((2<<4)|(old&15))",0,0,0);
	trans[1][207]	= settr(0,0,0,0,0,"registered = (registered|(1<<2))",0,0,0);
	trans[1][208]	= settr(0,0,0,0,0,"ok = 1",0,0,0);
	trans[1][212]	= settr(392,0,220,135,135,".(goto)", 1, 2, 0);
	trans[1][209]	= settr(389,2,210,2,0,"else", 1, 2, 0);
	trans[1][210]	= settr(390,4,220,136,136,"ok = 0", 1, 2, 0); /* m: 212 -> 0,220 */
	reached1[212] = 1;
	T = trans[1][220] = settr(400,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(400,0,214,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(400,0,218,0,0,"IF", 0, 2, 0);
	trans[1][214]	= settr(394,0,238,137,137,"(ok)", 0, 2, 0); /* m: 215 -> 238,0 */
	reached1[215] = 1;
	trans[1][215]	= settr(0,0,0,0,0,"seen = old",0,0,0);
	trans[1][216]	= settr(0,0,0,0,0,"r = 1",0,0,0);
	trans[1][217]	= settr(397,0,238,1,0,"goto :b13", 0, 2, 0);
	trans[1][221]	= settr(401,0,222,1,0,".(goto)", 0, 2, 0);
	trans[1][218]	= settr(398,0,219,2,0,"else", 0, 2, 0);
	trans[1][219]	= settr(399,0,222,138,138,"old = word", 1, 2, 0);
	trans[1][224]	= settr(404,0,238,1,0,"break", 0, 2, 0);
	T = trans[1][238] = settr(418,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(418,0,226,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(418,0,236,0,0,"IF", 0, 2, 0);
	trans[1][226]	= settr(406,0,235,139,139,"((r==0))", 0, 2, 0);
	T = trans[ 1][235] = settr(415,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(415,0,234,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 1][234] = settr(414,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(414,2,227,0,0,"ATOMIC", 1, 2, 0);
	trans[1][227]	= settr(407,0,245,140,140,"assert(((word&2)!=0))", 1, 2, 0); /* m: 228 -> 0,245 */
	reached1[228] = 1;
	trans[1][228]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[1][229]	= settr(0,0,0,0,0,"assert((ran[2]==0))",0,0,0);
	trans[1][230]	= settr(0,0,0,0,0,"assert(((ran_mask&before[2])==before[2]))",0,0,0);
	trans[1][231]	= settr(0,0,0,0,0,"assert((!(1)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[1][232]	= settr(0,0,0,0,0,"ran[2] = (ran[2]+1)",0,0,0);
	trans[1][233]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<2))",0,0,0);
	trans[1][239]	= settr(419,0,245,1,0,".(goto)", 0, 2, 0);
	trans[1][236]	= settr(416,0,237,2,0,"else", 0, 2, 0);
	trans[1][237]	= settr(417,0,245,1,0,"(1)", 0, 2, 0);
	trans[1][245]	= settr(425,0,247,141,141,"done_mask = (done_mask|(1<<2))", 1, 2, 0);
	trans[1][247]	= settr(427,0,0,142,142,"-end-", 0, 3500, 0);

	/* proctype 0: Resolver */

	trans[0] = (Trans **) emalloc(182*sizeof(Trans *));

	T = trans[ 0][24] = settr(23,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(23,0,1,0,0,"sub-sequence", 0, 2, 0);
	trans[0][1]	= settr(0,0,21,143,143,"old = word", 1, 2, 0);
	trans[0][22]	= settr(21,0,21,1,0,".(goto)", 0, 2, 0);
	T = trans[0][21] = settr(20,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(20,0,2,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(20,0,5,0,0,"DO", 0, 2, 0);
	trans[0][2]	= settr(1,0,179,144,144,"(((old&3)!=0))", 0, 2, 0); /* m: 3 -> 179,0 */
	reached0[3] = 1;
	trans[0][3]	= settr(0,0,0,0,0,"won = 0",0,0,0);
	trans[0][4]	= settr(3,0,179,1,0,"goto :b0", 0, 2, 0);
	trans[0][5]	= settr(4,0,13,2,0,"else", 0, 2, 0);
	T = trans[ 0][13] = settr(12,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(12,2,6,0,0,"ATOMIC", 1, 2, 0);
	trans[0][6]	= settr(5,2,11,145,145,"seen = word", 1, 2, 0);
	T = trans[0][11] = settr(10,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(10,2,7,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(10,2,9,0,0,"IF", 1, 2, 0);
	trans[0][7]	= settr(6,4,19,146,146,"((seen==old))", 1, 2, 0); /* m: 8 -> 19,0 */
	reached0[8] = 1;
	trans[0][8]	= settr(0,0,0,0,0,"word = (old|1)",0,0,0);
	trans[0][12]	= settr(11,0,19,147,147,".(goto)", 1, 2, 0);
	trans[0][9]	= settr(8,2,10,2,0,"else", 1, 2, 0);
	trans[0][10]	= settr(9,4,19,148,148,"(1)", 1, 2, 0); /* m: 12 -> 19,0 */
	reached0[12] = 1;
	T = trans[0][19] = settr(18,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(18,0,14,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(18,0,17,0,0,"IF", 0, 2, 0);
	trans[0][14]	= settr(13,0,179,149,149,"((seen==old))", 0, 2, 0); /* m: 15 -> 179,0 */
	reached0[15] = 1;
	trans[0][15]	= settr(0,0,0,0,0,"won = 1",0,0,0);
	trans[0][16]	= settr(15,0,179,1,0,"goto :b0", 0, 2, 0);
	trans[0][20]	= settr(19,0,21,1,0,".(goto)", 0, 2, 0);
	trans[0][17]	= settr(16,0,18,2,0,"else", 0, 2, 0);
	trans[0][18]	= settr(17,0,21,150,150,"old = seen", 0, 2, 0);
	trans[0][23]	= settr(22,0,179,1,0,"break", 0, 2, 0);
	T = trans[0][179] = settr(178,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(178,0,25,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(178,0,177,0,0,"IF", 0, 2, 0);
	trans[0][25]	= settr(24,0,29,151,151,"(won)", 0, 2, 0);
	T = trans[ 0][29] = settr(28,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(28,2,26,0,0,"ATOMIC", 1, 2, 0);
	trans[0][26]	= settr(25,4,30,152,152,"winners = (winners+1)", 1, 2, 0); /* m: 27 -> 0,30 */
	reached0[27] = 1;
	trans[0][27]	= settr(0,0,0,0,0,"assert((winners==1))",0,0,0);
	trans[0][28]	= settr(0,0,0,0,0,"winner_kind = kind",0,0,0);
	trans[0][30]	= settr(29,0,57,153,153,"payload = kind", 1, 2, 0);
	T = trans[ 0][57] = settr(56,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(56,0,31,0,0,"sub-sequence", 0, 2, 0);
	trans[0][31]	= settr(30,0,54,154,154,"old = word", 1, 2, 0);
	trans[0][55]	= settr(54,0,54,1,0,".(goto)", 0, 2, 0);
	T = trans[0][54] = settr(53,0,0,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(53,0,46,0,0,"DO", 0, 2, 0);
	T = trans[ 0][46] = settr(45,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(45,2,32,0,0,"ATOMIC", 1, 2, 0);
	trans[0][32]	= settr(31,2,44,155,155,"nw = ((kind<<2)|( (((!(((old&2)!=0))&&((old&8)!=0))||((old>>4)!=0))) -> (3) : (2) ))", 1, 2, 0); /* m: 33 -> 0,44 */
	reached0[33] = 1;
	trans[0][33]	= settr(0,0,0,0,0,"seen = word",0,0,0);
	T = trans[0][44] = settr(43,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(43,2,34,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(43,2,42,0,0,"IF", 1, 2, 0);
	trans[0][34]	= settr(33,2,40,156,156,"((seen==old))", 1, 2, 0); /* m: 35 -> 40,0 */
	reached0[35] = 1;
	trans[0][35]	= settr(0,0,0,0,0,"word = nw",0,0,0);
	T = trans[0][40] = settr(39,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(39,2,36,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(39,2,38,0,0,"IF", 1, 2, 0);
	trans[0][36]	= settr(35,4,52,157,157,"(((nw&3)==2))", 1, 2, 0); /* m: 37 -> 52,0 */
	reached0[37] = 1;
	trans[0][37]	= settr(0,0,0,0,0,"assert(((registered&~(ran_mask))==0))",0,0,0);
	trans[0][41]	= settr(40,4,52,158,158,".(goto)", 1, 2, 0); /* m: 45 -> 0,52 */
	reached0[45] = 1;
	trans[0][38]	= settr(37,2,39,2,0,"else", 1, 2, 0);
	trans[0][39]	= settr(38,4,52,159,159,"(1)", 1, 2, 0); /* m: 41 -> 52,0 */
	reached0[41] = 1;
	trans[0][45]	= settr(44,0,52,160,160,".(goto)", 1, 2, 0);
	trans[0][42]	= settr(41,2,43,2,0,"else", 1, 2, 0);
	trans[0][43]	= settr(42,4,52,161,161,"(1)", 1, 2, 0); /* m: 45 -> 52,0 */
	reached0[45] = 1;
	T = trans[0][52] = settr(51,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(51,0,47,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(51,0,50,0,0,"IF", 0, 2, 0);
	trans[0][47]	= settr(46,0,175,162,162,"((seen==old))", 0, 2, 0); /* m: 48 -> 175,0 */
	reached0[48] = 1;
	trans[0][48]	= settr(0,0,0,0,0,"taken = old",0,0,0);
	trans[0][49]	= settr(48,0,175,1,0,"goto :b1", 0, 2, 0);
	trans[0][53]	= settr(52,0,54,1,0,".(goto)", 0, 2, 0);
	trans[0][50]	= settr(49,0,51,2,0,"else", 0, 2, 0);
	trans[0][51]	= settr(50,0,54,163,163,"old = seen", 0, 2, 0);
	trans[0][56]	= settr(55,0,175,1,0,"break", 0, 2, 0);
	T = trans[0][175] = settr(174,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(174,0,58,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(174,0,173,0,0,"IF", 0, 2, 0);
	trans[0][58]	= settr(57,0,73,164,0,"(((!(((taken&2)!=0))&&((taken&8)!=0))||((taken>>4)!=0)))", 0, 2, 0);
	T = trans[0][73] = settr(72,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(72,0,59,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(72,0,71,0,0,"IF", 0, 2, 0);
	trans[0][59]	= settr(58,0,60,165,0,"((!(((taken&2)!=0))&&((taken&8)!=0)))", 0, 2, 0);
	trans[0][60]	= settr(59,0,61,166,166,"cb = slot_cb", 1, 2, 0);
	trans[0][61]	= settr(60,0,70,167,0,"assert((cb!=0))", 0, 2, 0);
	T = trans[ 0][70] = settr(69,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(69,0,69,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 0][69] = settr(68,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(68,2,62,0,0,"ATOMIC", 1, 2, 0);
	trans[0][62]	= settr(61,0,88,168,168,"assert(((word&2)!=0))", 1, 2, 0); /* m: 63 -> 0,88 */
	reached0[63] = 1;
	trans[0][63]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[0][64]	= settr(0,0,0,0,0,"assert((ran[cb]==0))",0,0,0);
	trans[0][65]	= settr(0,0,0,0,0,"assert(((ran_mask&before[cb])==before[cb]))",0,0,0);
	trans[0][66]	= settr(0,0,0,0,0,"assert((!(0)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[0][67]	= settr(0,0,0,0,0,"ran[cb] = (ran[cb]+1)",0,0,0);
	trans[0][68]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<cb))",0,0,0);
	trans[0][74]	= settr(73,0,75,1,0,".(goto)", 0, 2, 0); /* m: 75 -> 0,88 */
	reached0[75] = 1;
	trans[0][71]	= settr(70,0,72,2,0,"else", 0, 2, 0);
	trans[0][72]	= settr(71,0,88,169,169,"(1)", 0, 2, 0); /* m: 75 -> 88,0 */
	reached0[75] = 1;
	trans[0][75]	= settr(74,0,88,170,170,"lst = (taken>>4)", 0, 2, 0);
	T = trans[ 0][88] = settr(87,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(87,0,87,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 0][87] = settr(86,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(86,2,76,0,0,"ATOMIC", 1, 2, 0);
	trans[0][76]	= settr(75,2,84,171,171,"batch = 0", 1, 2, 0);
	trans[0][85]	= settr(84,2,84,1,0,".(goto)", 1, 2, 0);
	T = trans[0][84] = settr(83,2,0,0,0,"DO", 1, 2, 0);
	T = T->nxt	= settr(83,2,77,0,0,"DO", 1, 2, 0);
	    T->nxt	= settr(83,2,82,0,0,"DO", 1, 2, 0);
	trans[0][77]	= settr(76,2,84,172,172,"((lst!=0))", 1, 2, 0); /* m: 78 -> 84,0 */
	reached0[78] = 1;
	trans[0][78]	= settr(0,0,0,0,0,"nx = next[lst]",0,0,0);
	trans[0][79]	= settr(0,0,0,0,0,"next[lst] = batch",0,0,0);
	trans[0][80]	= settr(0,0,0,0,0,"batch = lst",0,0,0);
	trans[0][81]	= settr(0,0,0,0,0,"lst = nx",0,0,0);
	trans[0][82]	= settr(81,2,83,2,0,"else", 1, 2, 0);
	trans[0][83]	= settr(82,2,86,1,0,"goto :b2", 1, 2, 0);
	trans[0][86]	= settr(85,0,106,1,0,"break", 1, 2, 0);
	T = trans[ 0][106] = settr(105,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(105,0,103,0,0,"sub-sequence", 0, 2, 0);
	trans[0][104]	= settr(103,0,103,1,0,".(goto)", 0, 2, 0);
	T = trans[0][103] = settr(102,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(102,0,89,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(102,0,101,0,0,"DO", 0, 2, 0);
	trans[0][89]	= settr(88,0,90,173,0,"((batch!=0))", 0, 2, 0);
	trans[0][90]	= settr(89,0,99,174,174,"nx = next[batch]", 1, 2, 0);
	T = trans[ 0][99] = settr(98,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(98,0,98,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 0][98] = settr(97,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(97,2,91,0,0,"ATOMIC", 1, 2, 0);
	trans[0][91]	= settr(90,0,103,175,175,"assert(((word&2)!=0))", 1, 2, 0); /* m: 92 -> 0,103 */
	reached0[92] = 1;
	trans[0][92]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[0][93]	= settr(0,0,0,0,0,"assert((ran[batch]==0))",0,0,0);
	trans[0][94]	= settr(0,0,0,0,0,"assert(((ran_mask&before[batch])==before[batch]))",0,0,0);
	trans[0][95]	= settr(0,0,0,0,0,"assert((!(0)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[0][96]	= settr(0,0,0,0,0,"ran[batch] = (ran[batch]+1)",0,0,0);
	trans[0][97]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<batch))",0,0,0);
	trans[0][100]	= settr(0,0,0,0,0,"batch = nx",0,0,0);
	trans[0][101]	= settr(100,0,170,2,0,"else", 0, 2, 0);
	trans[0][102]	= settr(101,0,170,1,0,"goto :b3", 0, 2, 0);
	trans[0][105]	= settr(104,0,170,1,0,"break", 0, 2, 0);
	trans[0][171]	= settr(170,0,170,1,0,".(goto)", 0, 2, 0);
	T = trans[0][170] = settr(169,0,0,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(169,0,146,0,0,"DO", 0, 2, 0);
	T = trans[ 0][146] = settr(145,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(145,0,107,0,0,"sub-sequence", 0, 2, 0);
	trans[0][107]	= settr(106,0,130,176,176,"old = word", 1, 2, 0);
	trans[0][131]	= settr(130,0,130,1,0,".(goto)", 0, 2, 0);
	T = trans[0][130] = settr(129,0,0,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(129,0,123,0,0,"DO", 0, 2, 0);
	T = trans[ 0][123] = settr(122,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(122,2,108,0,0,"ATOMIC", 1, 2, 0);
	trans[0][108]	= settr(107,2,121,177,177,"lst = (old>>4)", 1, 2, 0); /* m: 109 -> 0,121 */
	reached0[109] = 1;
	trans[0][109]	= settr(0,0,0,0,0,"nw = ((old&(3<<2))|( ((lst!=0)) -> (3) : (2) ))",0,0,0);
	trans[0][110]	= settr(0,0,0,0,0,"seen = word",0,0,0);
	T = trans[0][121] = settr(120,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(120,2,111,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(120,2,119,0,0,"IF", 1, 2, 0);
	trans[0][111]	= settr(110,2,117,178,178,"((seen==old))", 1, 2, 0); /* m: 112 -> 117,0 */
	reached0[112] = 1;
	trans[0][112]	= settr(0,0,0,0,0,"word = nw",0,0,0);
	T = trans[0][117] = settr(116,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(116,2,113,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(116,2,115,0,0,"IF", 1, 2, 0);
	trans[0][113]	= settr(112,4,128,179,179,"(((nw&3)==2))", 1, 2, 0); /* m: 114 -> 128,0 */
	reached0[114] = 1;
	trans[0][114]	= settr(0,0,0,0,0,"assert(((registered&~(ran_mask))==0))",0,0,0);
	trans[0][118]	= settr(117,4,128,180,180,".(goto)", 1, 2, 0); /* m: 122 -> 0,128 */
	reached0[122] = 1;
	trans[0][115]	= settr(114,2,116,2,0,"else", 1, 2, 0);
	trans[0][116]	= settr(115,4,128,181,181,"(1)", 1, 2, 0); /* m: 118 -> 128,0 */
	reached0[118] = 1;
	trans[0][122]	= settr(121,0,128,182,182,".(goto)", 1, 2, 0);
	trans[0][119]	= settr(118,2,120,2,0,"else", 1, 2, 0);
	trans[0][120]	= settr(119,4,128,183,183,"(1)", 1, 2, 0); /* m: 122 -> 128,0 */
	reached0[122] = 1;
	T = trans[0][128] = settr(127,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(127,0,124,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(127,0,126,0,0,"IF", 0, 2, 0);
	trans[0][124]	= settr(123,0,145,184,184,"((seen==old))", 0, 2, 0);
	trans[0][125]	= settr(124,0,145,1,0,"goto :b5", 0, 2, 0);
	trans[0][129]	= settr(128,0,130,1,0,".(goto)", 0, 2, 0);
	trans[0][126]	= settr(125,0,127,2,0,"else", 0, 2, 0);
	trans[0][127]	= settr(126,0,130,185,185,"old = seen", 0, 2, 0);
	trans[0][132]	= settr(131,0,145,1,0,"break", 0, 2, 0);
	T = trans[ 0][145] = settr(144,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(144,0,144,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 0][144] = settr(143,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(143,2,133,0,0,"ATOMIC", 1, 2, 0);
	trans[0][133]	= settr(132,2,141,186,186,"batch = 0", 1, 2, 0);
	trans[0][142]	= settr(141,2,141,1,0,".(goto)", 1, 2, 0);
	T = trans[0][141] = settr(140,2,0,0,0,"DO", 1, 2, 0);
	T = T->nxt	= settr(140,2,134,0,0,"DO", 1, 2, 0);
	    T->nxt	= settr(140,2,139,0,0,"DO", 1, 2, 0);
	trans[0][134]	= settr(133,2,141,187,187,"((lst!=0))", 1, 2, 0); /* m: 135 -> 141,0 */
	reached0[135] = 1;
	trans[0][135]	= settr(0,0,0,0,0,"nx = next[lst]",0,0,0);
	trans[0][136]	= settr(0,0,0,0,0,"next[lst] = batch",0,0,0);
	trans[0][137]	= settr(0,0,0,0,0,"batch = lst",0,0,0);
	trans[0][138]	= settr(0,0,0,0,0,"lst = nx",0,0,0);
	trans[0][139]	= settr(138,2,140,2,0,"else", 1, 2, 0);
	trans[0][140]	= settr(139,2,143,1,0,"goto :b6", 1, 2, 0);
	trans[0][143]	= settr(142,0,168,1,0,"break", 1, 2, 0);
	T = trans[0][168] = settr(167,0,0,0,0,"IF", 0, 2, 0);
	T = T->nxt	= settr(167,0,147,0,0,"IF", 0, 2, 0);
	    T->nxt	= settr(167,0,149,0,0,"IF", 0, 2, 0);
	trans[0][147]	= settr(146,0,181,188,188,"((batch==0))", 0, 2, 0);
	trans[0][148]	= settr(147,0,181,1,0,"goto :b4", 0, 2, 0);
	trans[0][169]	= settr(168,0,170,1,0,".(goto)", 0, 2, 0);
	trans[0][149]	= settr(148,0,167,2,0,"else", 0, 2, 0);
	T = trans[ 0][167] = settr(166,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(166,0,164,0,0,"sub-sequence", 0, 2, 0);
	trans[0][165]	= settr(164,0,164,1,0,".(goto)", 0, 2, 0);
	T = trans[0][164] = settr(163,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(163,0,150,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(163,0,162,0,0,"DO", 0, 2, 0);
	trans[0][150]	= settr(149,0,151,189,0,"((batch!=0))", 0, 2, 0);
	trans[0][151]	= settr(150,0,160,190,190,"nx = next[batch]", 1, 2, 0);
	T = trans[ 0][160] = settr(159,0,0,0,0,"sub-sequence", 0, 2, 0);
	T->nxt	= settr(159,0,159,0,0,"sub-sequence", 0, 2, 0);
	T = trans[ 0][159] = settr(158,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(158,2,152,0,0,"ATOMIC", 1, 2, 0);
	trans[0][152]	= settr(151,0,164,191,191,"assert(((word&2)!=0))", 1, 2, 0); /* m: 153 -> 0,164 */
	reached0[153] = 1;
	trans[0][153]	= settr(0,0,0,0,0,"assert(((payload!=0)&&(payload==winner_kind)))",0,0,0);
	trans[0][154]	= settr(0,0,0,0,0,"assert((ran[batch]==0))",0,0,0);
	trans[0][155]	= settr(0,0,0,0,0,"assert(((ran_mask&before[batch])==before[batch]))",0,0,0);
	trans[0][156]	= settr(0,0,0,0,0,"assert((!(0)||((registered&~(ran_mask))==0)))",0,0,0);
	trans[0][157]	= settr(0,0,0,0,0,"ran[batch] = (ran[batch]+1)",0,0,0);
	trans[0][158]	= settr(0,0,0,0,0,"ran_mask = (ran_mask|(1<<batch))",0,0,0);
	trans[0][161]	= settr(0,0,0,0,0,"batch = nx",0,0,0);
	trans[0][162]	= settr(161,0,170,2,0,"else", 0, 2, 0);
	trans[0][163]	= settr(162,0,170,1,0,"goto :b7", 0, 2, 0);
	trans[0][166]	= settr(165,0,170,1,0,"break", 0, 2, 0);
	trans[0][172]	= settr(171,0,181,1,0,"break", 0, 2, 0);
	trans[0][176]	= settr(175,0,181,1,0,".(goto)", 0, 2, 0);
	trans[0][173]	= settr(172,0,174,2,0,"else", 0, 2, 0);
	trans[0][174]	= settr(173,0,181,1,0,"(1)", 0, 2, 0);
	trans[0][180]	= settr(179,0,181,1,0,".(goto)", 0, 2, 0);
	trans[0][177]	= settr(176,0,178,2,0,"else", 0, 2, 0);
	trans[0][178]	= settr(177,0,181,1,0,"(1)", 0, 2, 0);
	trans[0][181]	= settr(180,0,0,192,192,"-end-", 0, 3500, 0);
	/* np_ demon: */
	trans[_NP_] = (Trans **) emalloc(3*sizeof(Trans *));
	T = trans[_NP_][0] = settr(9997,0,1,_T5,0,"(np_)", 1,2,0);
	    T->nxt	  = settr(9998,0,0,_T2,0,"(1)",   0,2,0);
	T = trans[_NP_][1] = settr(9999,0,1,_T5,0,"(np_)", 1,2,0);
}

Trans *
settr(	int t_id, int a, int b, int c, int d,
	char *t, int g, int tpe0, int tpe1)
{	Trans *tmp = (Trans *) emalloc(sizeof(Trans));

	tmp->atom  = a&(6|32);	/* only (2|8|32) have meaning */
	if (!g) tmp->atom |= 8;	/* no global references */
	tmp->st    = b;
	tmp->tpe[0] = tpe0;
	tmp->tpe[1] = tpe1;
	tmp->tp    = t;
	tmp->t_id  = t_id;
	tmp->forw  = c;
	tmp->back  = d;
	return tmp;
}

Trans *
cpytr(Trans *a)
{	Trans *tmp = (Trans *) emalloc(sizeof(Trans));

	int i;
	tmp->atom  = a->atom;
	tmp->st    = a->st;
#ifdef HAS_UNLESS
	tmp->e_trans = a->e_trans;
	for (i = 0; i < HAS_UNLESS; i++)
		tmp->escp[i] = a->escp[i];
#endif
	tmp->tpe[0] = a->tpe[0];
	tmp->tpe[1] = a->tpe[1];
	for (i = 0; i < 6; i++)
	{	tmp->qu[i] = a->qu[i];
		tmp->ty[i] = a->ty[i];
	}
	tmp->tp    = (char *) emalloc(strlen(a->tp)+1);
	strcpy(tmp->tp, a->tp);
	tmp->t_id  = a->t_id;
	tmp->forw  = a->forw;
	tmp->back  = a->back;
	return tmp;
}

#ifndef NOREDUCE
int
srinc_set(int n)
{	if (n <= 2) return LOCAL;
	if (n <= 2+  DELTA) return Q_FULL_F; /* 's' or nfull  */
	if (n <= 2+2*DELTA) return Q_EMPT_F; /* 'r' or nempty */
	if (n <= 2+3*DELTA) return Q_EMPT_T; /* empty */
	if (n <= 2+4*DELTA) return Q_FULL_T; /* full  */
	if (n ==   5*DELTA) return GLOBAL;
	if (n ==   6*DELTA) return TIMEOUT_F;
	if (n ==   7*DELTA) return ALPHA_F;
	Uerror("cannot happen srinc_class");
	return BAD;
}
int
srunc(int n, int m)
{	switch(m) {
	case Q_FULL_F: return n-2;
	case Q_EMPT_F: return n-2-DELTA;
	case Q_EMPT_T: return n-2-2*DELTA;
	case Q_FULL_T: return n-2-3*DELTA;
	case ALPHA_F:
	case TIMEOUT_F: return 257; /* non-zero, and > MAXQ */
	}
	Uerror("cannot happen srunc");
	return 0;
}
#endif
int cnt;
#ifdef HAS_UNLESS
int
isthere(Trans *a, int b)
{	Trans *t;
	for (t = a; t; t = t->nxt)
		if (t->t_id == b)
			return 1;
	return 0;
}
#endif
#ifndef NOREDUCE
int
mark_safety(Trans *t) /* for conditional safety */
{	int g = 0, i, j, k;

	if (!t) return 0;
	if (t->qu[0])
		return (t->qu[1])?2:1;	/* marked */

	for (i = 0; i < 2; i++)
	{	j = srinc_set(t->tpe[i]);
		if (j >= GLOBAL && j != ALPHA_F)
			return -1;
		if (j != LOCAL)
		{	k = srunc(t->tpe[i], j);
			if (g == 0
			||  t->qu[0] != k
			||  t->ty[0] != j)
			{	t->qu[g] = k;
				t->ty[g] = j;
				g++;
	}	}	}
	return g;
}
#endif
void
retrans(int n, int m, int is, short srcln[], uchar reach[], uchar lpstate[])
	/* process n, with m states, is=initial state */
{	Trans *T0, *T1, *T2, *T3;
	Trans *T4, *T5; /* t_reverse or has_unless */
	int i;
#if defined(HAS_UNLESS) || !defined(NOREDUCE)
	int k;
#endif
#ifndef NOREDUCE
	int g, h, j, aa;
#endif
#ifdef HAS_UNLESS
	int p;
#endif
	if (state_tables >= 4)
	{	printf("STEP 1 %s\n", 
			procname[n]);
		for (i = 1; i < m; i++)
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			crack(n, i, T0, srcln);
		return;
	}
	do {
		for (i = 1, cnt = 0; i < m; i++)
		{	T2 = trans[n][i];
			T1 = T2?T2->nxt:(Trans *)0;
/* prescan: */		for (T0 = T1; T0; T0 = T0->nxt)
/* choice in choice */	{	if (T0->st && trans[n][T0->st]
				&&  trans[n][T0->st]->nxt)
					break;
			}
#if 0
		if (T0)
		printf("\tstate %d / %d: choice in choice\n",
		i, T0->st);
#endif
			if (T0)
			for (T0 = T1; T0; T0 = T0->nxt)
			{	T3 = trans[n][T0->st];
				if (!T3->nxt)
				{	T2->nxt = cpytr(T0);
					T2 = T2->nxt;
					imed(T2, T0->st, n, i);
					continue;
				}
				do {	T3 = T3->nxt;
					T2->nxt = cpytr(T3);
					T2 = T2->nxt;
					imed(T2, T0->st, n, i);
				} while (T3->nxt);
				cnt++;
			}
		}
	} while (cnt);
	if (state_tables >= 3)
	{	printf("STEP 2 %s\n", 
			procname[n]);
		for (i = 1; i < m; i++)
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			crack(n, i, T0, srcln);
		return;
	}
	for (i = 1; i < m; i++)
	{	if (trans[n][i] && trans[n][i]->nxt) /* optimize */
		{	T1 = trans[n][i]->nxt;
#if 0
			printf("\t\tpull %d (%d) to %d\n",
			T1->st, T1->forw, i);
#endif
			srcln[i] = srcln[T1->st];	/* Oyvind Teig, 5.2.0 */

			if (!trans[n][T1->st]) continue;
			T0 = cpytr(trans[n][T1->st]);
			trans[n][i] = T0;
			reach[T1->st] = 1;
			imed(T0, T1->st, n, i);
			for (T1 = T1->nxt; T1; T1 = T1->nxt)
			{
#if 0
			printf("\t\tpull %d (%d) to %d\n",
				T1->st, T1->forw, i);
#endif
		/*		srcln[i] = srcln[T1->st];  gh: not useful */
				if (!trans[n][T1->st]) continue;
				T0->nxt = cpytr(trans[n][T1->st]);
				T0 = T0->nxt;
				reach[T1->st] = 1;
				imed(T0, T1->st, n, i);
	}	}	}
	if (state_tables >= 2)
	{	printf("STEP 3 %s\n", 
			procname[n]);
		for (i = 1; i < m; i++)
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			crack(n, i, T0, srcln);
		return;
	}
#ifdef HAS_UNLESS
	for (i = 1; i < m; i++)
	{	if (!trans[n][i]) continue;
		/* check for each state i if an
		 * escape to some state p is defined
		 * if so, copy and mark p's transitions
		 * and prepend them to the transition-
		 * list of state i
		 */
	 if (!like_java) /* the default */
	 {	for (T0 = trans[n][i]; T0; T0 = T0->nxt)
		for (k = HAS_UNLESS-1; k >= 0; k--)
		{	if (p = T0->escp[k])
			for (T1 = trans[n][p]; T1; T1 = T1->nxt)
			{	if (isthere(trans[n][i], T1->t_id))
					continue;
				T2 = cpytr(T1);
				T2->e_trans = p;
				T2->nxt = trans[n][i];
				trans[n][i] = T2;
		}	}
	 } else /* outermost unless checked first */
	 {	T4 = T3 = (Trans *) 0;
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
		for (k = HAS_UNLESS-1; k >= 0; k--)
		{	if (p = T0->escp[k])
			for (T1 = trans[n][p]; T1; T1 = T1->nxt)
			{	if (isthere(trans[n][i], T1->t_id))
					continue;
				T2 = cpytr(T1);
				T2->nxt = (Trans *) 0;
				T2->e_trans = p;
				if (T3)	T3->nxt = T2;
				else	T4 = T2;
				T3 = T2;
		}	}
		if (T4)
		{	T3->nxt = trans[n][i];
			trans[n][i] = T4;
		}
	 }
	}
#endif
#ifndef NOREDUCE
	for (i = 1; i < m; i++)
	{	if (a_cycles)
		{ /* moves through these states are visible */
	#if PROG_LAB>0 && defined(HAS_NP)
			if (progstate[n][i])
				goto degrade;
			for (T1 = trans[n][i]; T1; T1 = T1->nxt)
				if (progstate[n][T1->st])
					goto degrade;
	#endif
			if (accpstate[n][i] || visstate[n][i])
				goto degrade;
			for (T1 = trans[n][i]; T1; T1 = T1->nxt)
				if (accpstate[n][T1->st])
					goto degrade;
		}
		T1 = trans[n][i];
		if (!T1) continue;
		g = mark_safety(T1);	/* V3.3.1 */
		if (g < 0) goto degrade; /* global */
		/* check if mixing of guards preserves reduction */
		if (T1->nxt)
		{	k = 0;
			for (T0 = T1; T0; T0 = T0->nxt)
			{	if (!(T0->atom&8))
					goto degrade;
				for (aa = 0; aa < 2; aa++)
				{	j = srinc_set(T0->tpe[aa]);
					if (j >= GLOBAL && j != ALPHA_F)
						goto degrade;
					if (T0->tpe[aa]
					&&  T0->tpe[aa]
					!=  T1->tpe[0])
						k = 1;
			}	}
			/* g = 0;	V3.3.1 */
			if (k)	/* non-uniform selection */
			for (T0 = T1; T0; T0 = T0->nxt)
			for (aa = 0; aa < 2; aa++)
			{	j = srinc_set(T0->tpe[aa]);
				if (j != LOCAL)
				{	k = srunc(T0->tpe[aa], j);
					for (h = 0; h < 6; h++)
						if (T1->qu[h] == k
						&&  T1->ty[h] == j)
							break;
					if (h >= 6)
					{	T1->qu[g%6] = k;
						T1->ty[g%6] = j;
						g++;
			}	}	}
			if (g > 6)
			{	T1->qu[0] = 0;	/* turn it off */
				printf("pan: warning, line %d, ",
					srcln[i]);
			 	printf("too many stmnt types (%d)",
					g);
			  	printf(" in selection\n");
			  goto degrade;
			}
		}
		/* mark all options global if >=1 is global */
		for (T1 = trans[n][i]; T1; T1 = T1->nxt)
			if (!(T1->atom&8)) break;
		if (T1)
degrade:	for (T1 = trans[n][i]; T1; T1 = T1->nxt)
			T1->atom &= ~8;	/* mark as unsafe */
		/* can only mix 'r's or 's's if on same chan */
		/* and not mixed with other local operations */
		T1 = trans[n][i];
		if (!T1 || T1->qu[0]) continue;
		j = T1->tpe[0];
		if (T1->nxt && T1->atom&8)
		{ if (j == 5*DELTA)
		  {	printf("warning: line %d ", srcln[i]);
			printf("mixed condition ");
			printf("(defeats reduction)\n");
			goto degrade;
		  }
		  for (T0 = T1; T0; T0 = T0->nxt)
		  for (aa = 0; aa < 2; aa++)
		  if  (T0->tpe[aa] && T0->tpe[aa] != j)
		  {	printf("warning: line %d ", srcln[i]);
			printf("[%d-%d] mixed %stion ",
				T0->tpe[aa], j, 
				(j==5*DELTA)?"condi":"selec");
			printf("(defeats reduction)\n");
			printf("	'%s' <-> '%s'\n",
				T1->tp, T0->tp);
			goto degrade;
		} }
	}
#endif
	for (i = 1; i < m; i++)
	{	T2 = trans[n][i];
		if (!T2
		||  T2->nxt
		||  strncmp(T2->tp, ".(goto)", 7)
		||  !stopstate[n][i])
			continue;
		stopstate[n][T2->st] = 1;
	}
	if (state_tables && !verbose)
	{	if (dodot)
		{	char buf[256], *q = buf, *p = procname[n];
			while (*p != '\0')
			{	if (*p != ':')
				{	*q++ = *p;
				}
				p++;
			}
			*q = '\0';
			printf("digraph ");
			switch (Btypes[n]) {
			case I_PROC:  printf("init {\n"); break;
			case N_CLAIM: printf("claim_%s {\n", buf); break;
			case E_TRACE: printf("notrace {\n"); break;
			case N_TRACE: printf("trace {\n"); break;
			default:      printf("p_%s {\n", buf); break;
			}
			printf("size=\"8,10\";\n");
			printf("  GT [shape=box,style=dotted,label=\"%s\"];\n", buf);
			printf("  GT -> S%d;\n", is);
		} else
		{	switch (Btypes[n]) {
			case I_PROC:  printf("init\n"); break;
			case N_CLAIM: printf("claim %s\n", procname[n]); break;
			case E_TRACE: printf("notrace assertion\n"); break;
			case N_TRACE: printf("trace assertion\n"); break;
			default:      printf("proctype %s\n", procname[n]); break;
		}	}
		for (i = 1; i < m; i++)
		{	reach[i] = 1;
		}
		tagtable(n, m, is, srcln, reach);
		if (dodot) printf("}\n");
	} else
	for (i = 1; i < m; i++)
	{	int nrelse;
		if (Btypes[n] != N_CLAIM)
		{	for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			{	if (T0->st == i
				&& strcmp(T0->tp, "(1)") == 0)
				{	printf("error: proctype '%s' ",
						procname[n]);
		  			printf("line %d, state %d: has un",
						srcln[i], i);
					printf("conditional self-loop\n");
					pan_exit(1);
		}	}	}
		nrelse = 0;
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
		{	if (strcmp(T0->tp, "else") == 0)
				nrelse++;
		}
		if (nrelse > 1)
		{	printf("error: proctype '%s' state",
				procname[n]);
		  	printf(" %d, inherits %d", i, nrelse);
		  	printf(" 'else' stmnts\n");
			pan_exit(1);
	}	}
#if !defined(LOOPSTATE) && !defined(BFS_PAR)
	if (state_tables)
#endif
	do_dfs(n, m, is, srcln, reach, lpstate);

	if (!t_reverse)
	{	return;
	}
	/* process n, with m states, is=initial state -- reverse list */
	if (!state_tables && Btypes[n] != N_CLAIM)
	{	for (i = 1; i < m; i++)
		{	Trans *Tx = (Trans *) 0; /* list of escapes */
			Trans *Ty = (Trans *) 0; /* its tail element */
			T1 = (Trans *) 0; /* reversed list */
			T2 = (Trans *) 0; /* its tail */
			T3 = (Trans *) 0; /* remembers possible 'else' */

			/* find unless-escapes, they should go first */
			T4 = T5 = T0 = trans[n][i];
	#ifdef HAS_UNLESS
			while (T4 && T4->e_trans) /* escapes are first in orig list */
			{	T5 = T4;	  /* remember predecessor */
				T4 = T4->nxt;
			}
	#endif
			/* T4 points to first non-escape, T5 to its parent, T0 to original list */
			if (T4 != T0)		 /* there was at least one escape */
			{	T3 = T5->nxt;		 /* start of non-escapes */
				T5->nxt = (Trans *) 0;	 /* separate */
				Tx = T0;		 /* start of the escapes */
				Ty = T5;		 /* its tail */
				T0 = T3;		 /* the rest, to be reversed */
			}
			/* T0 points to first non-escape, Tx to the list of escapes, Ty to its tail */

			/* first tail-add non-escape transitions, reversed */
			T3 = (Trans *) 0;
			for (T5 = T0; T5; T5 = T4)
			{	T4 = T5->nxt;
	#ifdef HAS_UNLESS
				if (T5->e_trans)
				{	printf("error: cannot happen!\n");
					continue;
				}
	#endif
				if (strcmp(T5->tp, "else") == 0)
				{	T3 = T5;
					T5->nxt = (Trans *) 0;
				} else
				{	T5->nxt = T1;
					if (!T1) { T2 = T5; }
					T1 = T5;
			}	}
			/* T3 points to a possible else, which is removed from the list */
			/* T1 points to the reversed list so far (without escapes) */
			/* T2 points to the tail element -- where the else should go */
			if (T2 && T3)
			{	T2->nxt = T3;	/* add else */
			} else
			{	if (T3) /* there was an else, but there's no tail */
				{	if (!T1)	/* and no reversed list */
					{	T1 = T3; /* odd, but possible */
					} else		/* even stranger */
					{	T1->nxt = T3;
			}	}	}

			/* add in the escapes, to that they appear at the front */
			if (Tx && Ty) { Ty->nxt = T1; T1 = Tx; }

			trans[n][i] = T1;
			/* reversed, with escapes first and else last */
	}	}
	if (state_tables && verbose)
	{	printf("FINAL proctype %s\n", 
			procname[n]);
		for (i = 1; i < m; i++)
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			crack(n, i, T0, srcln);
	}
}
void
imed(Trans *T, int v, int n, int j)	/* set intermediate state */
{	progstate[n][T->st] |= progstate[n][v];
	accpstate[n][T->st] |= accpstate[n][v];
	stopstate[n][T->st] |= stopstate[n][v];
	mapstate[n][j] = T->st;
}
void
tagtable(int n, int m, int is, short srcln[], uchar reach[])
{	Trans *z;

	if (is >= m || !trans[n][is]
	||  is <= 0 || reach[is] == 0)
		return;
	reach[is] = 0;
	if (state_tables)
	for (z = trans[n][is]; z; z = z->nxt)
	{	if (dodot)
			dot_crack(n, is, z);
		else
			crack(n, is, z, srcln);
	}

	for (z = trans[n][is]; z; z = z->nxt)
	{
#ifdef HAS_UNLESS
		int i, j;
#endif
		tagtable(n, m, z->st, srcln, reach);
#ifdef HAS_UNLESS
		for (i = 0; i < HAS_UNLESS; i++)
		{	j = trans[n][is]->escp[i];
			if (!j) break;
			tagtable(n, m, j, srcln, reach);
		}
#endif
	}
}

extern Trans *t_id_lkup[];

void
dfs_table(int n, int m, int is, short srcln[], uchar reach[], uchar lpstate[])
{	Trans *z;

	if (is >= m || is <= 0 || !trans[n][is])
		return;
	if ((reach[is] & (4|8|16)) != 0)
	{	if ((reach[is] & (8|16)) == 16)	/* on stack, not yet recorded */
		{	lpstate[is] = 1;
			reach[is] |= 8; /* recorded */
			if (state_tables && verbose)
			{	printf("state %d line %d is a loopstate\n", is, srcln[is]);
		}	}
		return;
	}
	reach[is] |= (4|16);	/* visited | onstack */
	for (z = trans[n][is]; z; z = z->nxt)
	{	t_id_lkup[z->t_id] = z;
#ifdef HAS_UNLESS
		int i, j;
#endif
		dfs_table(n, m, z->st, srcln, reach, lpstate);
#ifdef HAS_UNLESS
		for (i = 0; i < HAS_UNLESS; i++)
		{	j = trans[n][is]->escp[i];
			if (!j) break;
			dfs_table(n, m, j, srcln, reach, lpstate);
		}
#endif
	}
	reach[is] &= ~16; /* no longer on stack */
}
void
do_dfs(int n, int m, int is, short srcln[], uchar reach[], uchar lpstate[])
{	int i;
	dfs_table(n, m, is, srcln, reach, lpstate);
	for (i = 0; i < m; i++)
		reach[i] &= ~(4|8|16);
}
void
crack(int n, int j, Trans *z, short srcln[])
{	int i;

	if (!z) return;
	printf("	state %3d -(tr %3d)-> state %3d  ",
		j, z->forw, z->st);
	printf("[id %3d tp %3d", z->t_id, z->tpe[0]);
	if (z->tpe[1]) printf(",%d", z->tpe[1]);
#ifdef HAS_UNLESS
	if (z->e_trans)
		printf(" org %3d", z->e_trans);
	else if (state_tables >= 2)
	for (i = 0; i < HAS_UNLESS; i++)
	{	if (!z->escp[i]) break;
		printf(" esc %d", z->escp[i]);
	}
#endif
	printf("]");
	printf(" [%s%s%s%s%s] %s:%d => ",
		z->atom&6?"A":z->atom&32?"D":"-",
		accpstate[n][j]?"a" :"-",
		stopstate[n][j]?"e" : "-",
		progstate[n][j]?"p" : "-",
		z->atom & 8 ?"L":"G",
		PanSource, srcln[j]);
	for (i = 0; z->tp[i]; i++)
		if (z->tp[i] == '\n')
			printf("\\n");
		else
			putchar(z->tp[i]);
	if (verbose && z->qu[0])
	{	printf("\t[");
		for (i = 0; i < 6; i++)
			if (z->qu[i])
				printf("(%d,%d)",
				z->qu[i], z->ty[i]);
		printf("]");
	}
	printf("\n");
	fflush(stdout);
}
/* spin -a m.pml; cc -o pan pan.c; ./pan -D | dot -Tps > foo.ps; ps2pdf foo.ps */
void
dot_crack(int n, int j, Trans *z)
{	int i;

	if (!z) return;
	printf("	S%d -> S%d  [color=black", j, z->st);

	if (z->atom&6) printf(",style=dashed");
	else if (z->atom&32) printf(",style=dotted");
	else if (z->atom&8) printf(",style=solid");
	else printf(",style=bold");

	printf(",label=\"");
	for (i = 0; z->tp[i]; i++)
	{	if (z->tp[i] == '\\'
		&&  z->tp[i+1] == 'n')
		{	i++; printf(" ");
		} else
		{	putchar(z->tp[i]);
	}	}
	printf("\"];\n");
	if (accpstate[n][j]) printf("  S%d [color=red,style=bold];\n", j);
	else if (progstate[n][j]) printf("  S%d [color=green,style=bold];\n", j);
	if (stopstate[n][j]) printf("  S%d [color=blue,style=bold,shape=box];\n", j);
}

#ifdef VAR_RANGES
#define BYTESIZE	32	/* 2^8 : 2^3 = 256:8 = 32 */

typedef struct Vr_Ptr {
	char	*nm;
	uchar	vals[BYTESIZE];
	struct Vr_Ptr *nxt;
} Vr_Ptr;
Vr_Ptr *ranges = (Vr_Ptr *) 0;

void
logval(char *s, int v)
{	Vr_Ptr *tmp;

	if (v<0 || v > 255) return;
	for (tmp = ranges; tmp; tmp = tmp->nxt)
		if (!strcmp(tmp->nm, s))
			goto found;
	tmp = (Vr_Ptr *) emalloc(sizeof(Vr_Ptr));
	tmp->nxt = ranges;
	ranges = tmp;
	tmp->nm = s;
found:
	tmp->vals[(v)/8] |= 1<<((v)%8);
}

void
dumpval(uchar X[], int range)
{	int w, x, i, j = -1;

	for (w = i = 0; w < range; w++)
	for (x = 0; x < 8; x++, i++)
	{
from:		if ((X[w] & (1<<x)))
		{	printf("%d", i);
			j = i;
			goto upto;
	}	}
	return;
	for (w = 0; w < range; w++)
	for (x = 0; x < 8; x++, i++)
	{
upto:		if (!(X[w] & (1<<x)))
		{	if (i-1 == j)
				printf(", ");
			else
				printf("-%d, ", i-1);
			goto from;
	}	}
	if (j >= 0 && j != 255)
		printf("-255");
}

void
dumpranges(void)
{	Vr_Ptr *tmp;
	printf("\nValues assigned within ");
	printf("interval [0..255]:\n");
	for (tmp = ranges; tmp; tmp = tmp->nxt)
	{	printf("\t%s\t: ", tmp->nm);
		dumpval(tmp->vals, BYTESIZE);
		printf("\n");
	}
}
#endif
