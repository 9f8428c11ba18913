/// Every App Store storefront, as data: the tables `Storefront.all` reads.
///
/// Storefronts, one a line, tab-separated: the ISO 3166-1 alpha-3 code (`Storefront.countryCode`:
/// "This property uses the ISO 3166-1 Alpha-3 country code representation",
/// https://developer.apple.com/documentation/storekit/storefront/countrycode), Apple's storefront ID
/// (`storefrontId`: "An Apple-defined value that uniquely identifies an App Store storefront. …
/// This value is the same as the Storefront/id value in StoreKit",
/// https://developer.apple.com/documentation/appstoreserverapi/storefrontid), the currency, and
/// the locale prices are written in.
///
/// - The 175 territories and their currencies: Apple's "Financial report regions and currencies"
///   (https://developer.apple.com/help/app-store-connect/reference/financial-report-regions-and-currencies)
///   lists the local currencies and the Euro-Zone; every other territory is in US dollars there.
///   Apple does not say these report currencies are the ones customers pay in.
/// - Apple publishes no table of storefront IDs. These are the IDs public App Store clients use
///   (iRingo, ipatool, app-store-scraper), which agree wherever they overlap; USA 143441 is the
///   value in Apple's own App Store Server Library test data. Kosovo has no ISO 3166-1 code: XKS is
///   the code public lists of App Store Connect territories give it; Apple does not say what
///   `countryCode` is there.
/// - The first thirteen, in this order, are the storefronts monkeyshop has always offered, so the
///   storefront switch goes through them first. Locales: the country's main language as Unicode's
///   likely-subtags data gives it, English where that language is written right to left (a terminal
///   would reorder the price).
enum StorefrontTable {
  static let storefronts = """
    USA	143441	USD	en_US
    JPN	143462	JPY	ja_JP
    GBR	143444	GBP	en_GB
    DEU	143443	EUR	de_DE
    FRA	143442	EUR	fr_FR
    CAN	143455	CAD	en_CA
    AUS	143460	AUD	en_AU
    ITA	143450	EUR	it_IT
    ESP	143454	EUR	es_ES
    KOR	143466	KRW	ko_KR
    BRA	143503	BRL	pt_BR
    MEX	143468	MXN	es_MX
    IND	143467	INR	en_IN
    AFG	143610	USD	en_AF
    AGO	143564	USD	pt_AO
    AIA	143538	USD	en_AI
    ALB	143575	USD	sq_AL
    ARE	143481	AED	en_AE
    ARG	143505	USD	es_AR
    ARM	143524	USD	hy_AM
    ATG	143540	USD	en_AG
    AUT	143445	EUR	de_AT
    AZE	143568	USD	az_AZ
    BEL	143446	EUR	nl_BE
    BEN	143576	USD	fr_BJ
    BFA	143578	USD	fr_BF
    BGR	143526	EUR	bg_BG
    BHR	143559	USD	en_BH
    BHS	143539	USD	en_BS
    BIH	143612	EUR	bs_BA
    BLR	143565	USD	be_BY
    BLZ	143555	USD	en_BZ
    BMU	143542	USD	en_BM
    BOL	143556	USD	es_BO
    BRB	143541	USD	en_BB
    BRN	143560	USD	ms_BN
    BTN	143577	USD	dz_BT
    BWA	143525	USD	en_BW
    CHE	143459	CHF	de_CH
    CHL	143483	CLP	es_CL
    CHN	143465	CNY	zh_CN
    CIV	143527	USD	fr_CI
    CMR	143574	USD	fr_CM
    COD	143613	USD	sw_CD
    COG	143582	USD	fr_CG
    COL	143501	COP	es_CO
    CPV	143580	USD	pt_CV
    CRI	143495	USD	es_CR
    CYM	143544	USD	en_KY
    CYP	143557	EUR	el_CY
    CZE	143489	CZK	cs_CZ
    DMA	143545	USD	en_DM
    DNK	143458	DKK	da_DK
    DOM	143508	USD	es_DO
    DZA	143563	USD	en_DZ
    ECU	143509	USD	es_EC
    EGY	143516	EGP	en_EG
    EST	143518	EUR	et_EE
    FIN	143447	EUR	fi_FI
    FJI	143583	USD	en_FJ
    FSM	143591	USD	en_FM
    GAB	143614	USD	fr_GA
    GEO	143615	USD	ka_GE
    GHA	143573	USD	ak_GH
    GMB	143584	USD	en_GM
    GNB	143585	USD	pt_GW
    GRC	143448	EUR	el_GR
    GRD	143546	USD	en_GD
    GTM	143504	USD	es_GT
    GUY	143553	USD	en_GY
    HKG	143463	HKD	zh_HK
    HND	143510	USD	es_HN
    HRV	143494	EUR	hr_HR
    HUN	143482	HUF	hu_HU
    IDN	143476	IDR	id_ID
    IRL	143449	EUR	en_IE
    IRQ	143617	USD	en_IQ
    ISL	143558	USD	is_IS
    ISR	143491	ILS	en_IL
    JAM	143511	USD	en_JM
    JOR	143528	USD	en_JO
    KAZ	143517	KZT	ru_KZ
    KEN	143529	USD	sw_KE
    KGZ	143586	USD	ky_KG
    KHM	143579	USD	km_KH
    KNA	143548	USD	en_KN
    KWT	143493	USD	en_KW
    LAO	143587	USD	lo_LA
    LBN	143497	USD	en_LB
    LBR	143588	USD	en_LR
    LBY	143567	USD	en_LY
    LCA	143549	USD	en_LC
    LKA	143486	USD	si_LK
    LTU	143520	EUR	lt_LT
    LUX	143451	EUR	fr_LU
    LVA	143519	EUR	lv_LV
    MAC	143515	USD	zh_MO
    MAR	143620	USD	en_MA
    MDA	143523	USD	ro_MD
    MDG	143531	USD	mg_MG
    MDV	143488	USD	en_MV
    MKD	143530	USD	mk_MK
    MLI	143532	USD	bm_ML
    MLT	143521	EUR	mt_MT
    MMR	143570	USD	my_MM
    MNE	143619	EUR	sr_ME
    MNG	143592	USD	mn_MN
    MOZ	143593	USD	pt_MZ
    MRT	143590	USD	en_MR
    MSR	143547	USD	en_MS
    MUS	143533	USD	mfe_MU
    MWI	143589	USD	en_MW
    MYS	143473	MYR	ms_MY
    NAM	143594	USD	af_NA
    NER	143534	USD	ha_NE
    NGA	143561	NGN	en_NG
    NIC	143512	USD	es_NI
    NLD	143452	EUR	nl_NL
    NOR	143457	NOK	nb_NO
    NPL	143484	USD	ne_NP
    NRU	143606	USD	en_NR
    NZL	143461	NZD	en_NZ
    OMN	143562	USD	en_OM
    PAK	143477	PKR	en_PK
    PAN	143485	USD	es_PA
    PER	143507	PEN	es_PE
    PHL	143474	PHP	fil_PH
    PLW	143595	USD	pau_PW
    PNG	143597	USD	tpi_PG
    POL	143478	PLN	pl_PL
    PRT	143453	EUR	pt_PT
    PRY	143513	USD	gn_PY
    QAT	143498	QAR	en_QA
    ROU	143487	RON	ro_RO
    RUS	143469	RUB	ru_RU
    RWA	143621	USD	rw_RW
    SAU	143479	SAR	en_SA
    SEN	143535	USD	fr_SN
    SGP	143464	SGD	en_SG
    SLB	143601	USD	en_SB
    SLE	143600	USD	kri_SL
    SLV	143506	USD	es_SV
    SRB	143500	EUR	sr_RS
    STP	143598	USD	pt_ST
    SUR	143554	USD	nl_SR
    SVK	143496	EUR	sk_SK
    SVN	143499	EUR	sl_SI
    SWE	143456	SEK	sv_SE
    SWZ	143602	USD	en_SZ
    SYC	143599	USD	fr_SC
    TCA	143552	USD	en_TC
    TCD	143581	USD	fr_TD
    THA	143475	THB	th_TH
    TJK	143603	USD	tg_TJ
    TKM	143604	USD	tk_TM
    TON	143608	USD	to_TO
    TTO	143551	USD	en_TT
    TUN	143536	USD	en_TN
    TUR	143480	TRY	tr_TR
    TWN	143470	TWD	zh_TW
    TZA	143572	TZS	sw_TZ
    UGA	143537	USD	sw_UG
    UKR	143492	USD	uk_UA
    URY	143514	USD	es_UY
    UZB	143566	USD	uz_UZ
    VCT	143550	USD	en_VC
    VEN	143502	USD	es_VE
    VGB	143543	USD	en_VG
    VNM	143471	VND	vi_VN
    VUT	143609	USD	bi_VU
    XKS	143624	EUR	sq_XK
    YEM	143571	USD	en_YE
    ZAF	143472	ZAR	en_ZA
    ZMB	143622	USD	bem_ZM
    ZWE	143605	USD	sn_ZW
    """

  /// Currencies: ISO 4217 code, the digits of the minor unit as prices are written (ICU's
  /// currency data: 0 for yen, won, dong, rupiah, Chilean and Colombian pesos and Pakistani rupees,
  /// whose prices the App Store writes whole), and the unit's English name for messages.
  static let currencies = """
    AED	2	United Arab Emirates dirhams
    AUD	2	Australian dollars
    BRL	2	reais
    CAD	2	Canadian dollars
    CHF	2	Swiss francs
    CLP	0	Chilean pesos
    CNY	2	yuan
    COP	0	Colombian pesos
    CZK	2	koruny
    DKK	2	Danish kroner
    EGP	2	Egyptian pounds
    EUR	2	euros
    GBP	2	pounds
    HKD	2	Hong Kong dollars
    HUF	2	forints
    IDR	0	rupiah
    ILS	2	shekels
    INR	2	rupees
    JPY	0	yen
    KRW	0	won
    KZT	2	tenge
    MXN	2	Mexican pesos
    MYR	2	ringgit
    NGN	2	naira
    NOK	2	Norwegian kroner
    NZD	2	New Zealand dollars
    PEN	2	soles
    PHP	2	Philippine pesos
    PKR	0	Pakistani rupees
    PLN	2	złoty
    QAR	2	Qatari riyals
    RON	2	lei
    RUB	2	rubles
    SAR	2	Saudi riyals
    SEK	2	Swedish kronor
    SGD	2	Singapore dollars
    THB	2	baht
    TRY	2	lira
    TWD	2	New Taiwan dollars
    TZS	2	Tanzanian shillings
    USD	2	US dollars
    VND	0	dong
    ZAR	2	rand
    """
}
